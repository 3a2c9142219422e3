import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Each of these row kinds has one writer in src/store/rows/, so a new column is filled in one place.
const srcDir = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The files under src whose text matches `pattern`, relative to src. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(srcDir).filter((file) => pattern.test(readFileSync(file, 'utf8'))).map((file) => relative(srcDir, file));
}

describe('one writer per row kind', () => {
  it.each([
    ['messages', 'store/rows/messages.ts'],
    ['users', 'store/rows/users.ts'],
    ['events', 'store/rows/events.ts'],
  ])('only its writer inserts %s rows', (table, writer) => {
    expect(filesMatching(new RegExp(`insertInto\\(\\s*'${table}'`))).toEqual([writer]);
  });

  it('only the messages writer changes a message row (an edit, a preview)', () => {
    expect(filesMatching(/updateTable\(\s*'messages'|update messages\b/)).toEqual(['store/rows/messages.ts']);
  });

  it('appends stream entries and moves the team’s position in one place (and SQLite’s trigger)', () => {
    expect(filesMatching(/insertInto\(\s*'stream_entries'|insert into stream_entries/)).toEqual(['store/rows/streamEntries.ts']);
    // The trigger is 0007_stream's; renamedMigrations.ts makes it again on a store of that migration's first text.
    expect(filesMatching(/set\s*\(?\s*(\{\s*)?stream_seq/)).toEqual(['store/migrations/0007_stream.ts', 'store/renamedMigrations.ts']);
    expect(filesMatching(/\bset\b.{0,20}stream_pruned/)).toEqual(['store/migrations/0010_stream_positions.ts', 'store/rows/streamEntries.ts']);
  });

  it('defines the direct chat key once', () => {
    expect(filesMatching(/(const|function)\s+directChatKey\b|\.sort\(\)\.join\('\|'\)/)).toEqual(['store/rows/messages.ts']);
  });
});
