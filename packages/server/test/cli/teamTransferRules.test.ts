import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportTeam } from '../../src/core/transfer/exportTeam.js';
import { LocalFileStorage } from '../../src/files/localStorage.js';
import { newMessageUid } from '../../src/store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { withReadSnapshot } from '../../src/store/readSnapshot.js';
import type { Db } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { teamWithApp } from '../helpers/factories.js';
import { createTestStore } from '../helpers/store.js';
import { runCli, runCliJson } from './cli.js';
import { cliScratch } from './stores.js';

const DAY = 86_400_000;
const lines = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

/** A team of three with an app, a channel of two of them, and messages a day apart from 2026-01-01 on. */
async function castWithHistory(db: Db) {
  const cast = await teamWithApp(db, 3);
  const [ana, ben, cy] = cast.people;
  const channel = 'g:aaaaaaaaaaaaaaaa';
  await db.insertInto('channels').values({ id: channel, team_id: cast.team.id, name: 'general', purpose: '', type: 'public', profile_image: null, created_by: ana.id, created_at: 0 }).execute();
  await db.insertInto('channel_members').values([ana, ben].map((person) => ({ channel_id: channel, user_id: person.id, affiliation: 'member' as const, joined_at: 0 }))).execute();
  const start = Date.parse('2026-01-01T00:00:00Z');
  const rows = [
    { chat_key: channel, from: ana, to: channel, day: 0 },
    { chat_key: channel, from: ben, to: channel, day: 1 },
    { chat_key: channel, from: ana, to: channel, day: 2 },
    { chat_key: directChatKey(ana.id, cy.id), from: cy, to: ana.id, day: 1 },
    { chat_key: directChatKey(ben.id, cy.id), from: ben, to: cy.id, day: 1 },
  ].map(({ chat_key, from, to, day }) =>
    messageRow({ uid: newMessageUid(start + day * DAY), chat_key, team_id: cast.team.id, from_user_id: from.id, to_id: to, timestamp: start + day * DAY, text: `day ${day} from ${from.first_name}` }),
  );
  await insertMessages(db, rows.sort((a, b) => a.uid.localeCompare(b.uid)));
  return { ...cast, channel, messages: rows };
}

describe.each(dialects)('team export and import, their rules (%s)', (dialect) => {
  const { fresh: freshOf, later, scratch } = cliScratch('export');
  const fresh = () => freshOf(dialect);
  const seeded = async () => {
    const source = await fresh();
    const store = source.open();
    later(() => store.close());
    await store.migrate();
    return { source, db: store.db, cast: await castWithHistory(store.db) };
  };

  it('compliance exports: one channel or one person, within --since and --until, and not importable', async () => {
    const { source, cast } = await seeded();
    const [ana, , cy] = cast.people;
    const channelOut = join(scratch(), 'channel');
    const manifest = await runCliJson(['team', 'export', '--channel', cast.channel, '--since', '2026-01-02', '--until', '2026-01-03T12:00:00Z', '--out', channelOut, ...source.on]);
    expect(manifest.scope).toEqual({ kind: 'channel', channelId: cast.channel, since: Date.parse('2026-01-02'), until: Date.parse('2026-01-03T12:00:00Z') });
    expect(Object.keys(manifest.kinds)).toEqual(['messages']);
    expect(lines(channelOut, 'messages.jsonl').map((message) => message.text)).toEqual(['day 1 from Pat', 'day 2 from Pat']);

    const personOut = join(scratch(), 'person');
    await runCliJson(['team', 'export', '--person', cy.id, '--out', personOut, ...source.on]);
    const ofCy = lines(personOut, 'messages.jsonl');
    expect(ofCy.map((message) => [message.fromUserId, message.toId])).toEqual([[cy.id, ana.id], [cast.people[1].id, cy.id]]);

    const imported = await runCli(['team', 'import', '--from', personOut, ...(await fresh()).on, '--json']);
    expect(JSON.parse(imported.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringContaining('compliance export') });
    for (const [args, problem] of [
      [['--channel', cast.channel, '--since', 'yesterday'], '--since must be a date or time in ISO 8601'],
      [['--channel', cast.channel, '--since', '2026-02-01', '--until', '2026-01-01'], '--since must be before --until'],
      [['--team', cast.team.id, '--channel', cast.channel], 'exactly one of --team'],
      [['--team', cast.team.id, '--since', '2026-01-01'], 'for a compliance export'],
    ] as const) {
      const refused = await runCli(['team', 'export', ...args, '--out', join(scratch(), 'x'), ...source.on, '--json']);
      expect(JSON.parse(refused.stdout)).toEqual({ error: 'InvalidUsage', description: expect.stringContaining(problem) });
    }
    const notEmpty = await runCli(['team', 'export', '--team', cast.team.id, '--out', channelOut, ...source.on, '--json']);
    expect(JSON.parse(notEmpty.stdout)).toEqual({ error: 'InvalidOption', description: `${channelOut} is not empty: give --out a new or empty directory.` });
    const unknownTeam = await runCli(['team', 'export', '--team', 't:nonenonenonenone', '--out', join(scratch(), 'z'), ...source.on, '--json']);
    expect(JSON.parse(unknownTeam.stdout)).toEqual({ error: 'UnknownTeam', description: 'There is no team "t:nonenonenonenone".' });
    const unknownChannel = await runCli(['team', 'export', '--channel', 'g:nonenonenonenone', '--out', join(scratch(), 'y'), ...source.on, '--json']);
    expect(JSON.parse(unknownChannel.stdout)).toEqual({ error: 'InvalidOption', description: 'There is no channel "g:nonenonenonenone".' });
  });

  it('without --include-secrets writes no secret and no token; the import makes the apps new secrets', async () => {
    const { source, cast } = await seeded();
    const out = join(scratch(), 'plain');
    const manifest = await runCliJson(['team', 'export', '--team', cast.team.id, '--out', out, ...source.on]);
    expect(manifest.includesSecrets).toBe(false);
    expect(manifest.kinds.tokens).toBeUndefined();
    const [app] = lines(out, 'apps.jsonl');
    expect(app).not.toHaveProperty('secret');
    expect(readFileSync(join(out, 'apps.jsonl'), 'utf8')).not.toContain(cast.app.secret);

    const into = await fresh();
    const summary = await runCliJson(['team', 'import', '--from', out, ...into.on]);
    expect(summary.appsWithNewSecrets).toBe(1);
    const store = into.open();
    later(() => store.close());
    const imported = await store.db.selectFrom('apps').select('secret').where('id', '=', cast.app.id).executeTakeFirstOrThrow();
    expect(imported.secret).toMatch(/^as_/);
    expect(imported.secret).not.toBe(cast.app.secret);
  });

  it('refuses an export whose ids the store holds, a truncated file, a bad line and a newer format, writing nothing', async () => {
    const { source, cast } = await seeded();
    const out = join(scratch(), 'team');
    await runCliJson(['team', 'export', '--team', cast.team.id, '--out', out, ...source.on]);

    // The store already holds the last message's uid (of another team): everything before it went in, and is rolled back.
    const into = await fresh();
    const store = into.open();
    later(() => store.close());
    await store.migrate();
    const other = await teamWithApp(store.db, 1);
    const last = lines(out, 'messages.jsonl').at(-1);
    await insertMessages(store.db, [messageRow({ uid: last.uid, chat_key: directChatKey(other.people[0].id, 'u:x'), team_id: other.team.id, from_user_id: other.people[0].id, to_id: 'u:x', timestamp: 0, text: 'taken' })]);
    const conflict = await runCli(['team', 'import', '--from', out, ...into.on, '--json']);
    expect(conflict.code).toBe(1);
    expect(JSON.parse(conflict.stdout)).toEqual({ error: 'ImportConflict', description: expect.stringMatching(new RegExp(`messages\\.jsonl:5: messages "${last.uid}" is already in this store`)) });
    for (const table of ['teams', 'users', 'channels', 'apps'] as const) {
      expect(await store.db.selectFrom(table).select('id').where('id', 'in', [cast.team.id, cast.channel, cast.app.id, ...cast.people.map((p) => p.id)]).execute(), table).toEqual([]);
    }

    const expectRefusal = async (dir: string, problem: string | RegExp) => {
      const target = await fresh();
      const result = await runCli(['team', 'import', '--from', dir, ...target.on, '--json']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(problem) });
      const check = target.open();
      expect(await check.db.selectFrom('users').select('id').execute()).toEqual([]);
      await check.close();
    };
    await expectRefusal(
      brokenDir(out, scratch(), (dir) => writeFileSync(join(dir, 'messages.jsonl'), readFileSync(join(out, 'messages.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n'))),
      /messages\.jsonl holds 3 records but manifest\.json says 5/,
    );
    await expectRefusal(brokenDir(out, scratch(), (dir) => appendFileSync(join(dir, 'channels.jsonl'), '{"id": \n')), /channels\.jsonl:2 is not JSON/);
    await expectRefusal(
      brokenDir(out, scratch(), (dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
        writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 99 }));
      }),
      /format version 99 is newer than this Aviary reads/,
    );
  });

  it.runIf(dialect === 'sqlite')('reads a large team in bounded pages and writes with backpressure', { timeout: 120_000 }, async () => {
    const test = await createTestStore('sqlite');
    later(() => test.destroy());
    const { team, people } = await teamWithApp(test.store.db, 2);
    const start = Date.parse('2026-01-01T00:00:00Z');
    const count = 20_000;
    const rows = Array.from({ length: count }, (_, i) =>
      messageRow({ uid: newMessageUid(start + i), chat_key: directChatKey(people[0].id, people[1].id), team_id: team.id, from_user_id: people[i % 2].id, to_id: people[(i + 1) % 2].id, timestamp: start + i, text: `message ${i} ${'x'.repeat(200)}` }),
    );
    await test.store.db.transaction().execute((tx) => insertMessages(tx, rows));

    const pages: number[] = [];
    const files: Record<string, { count: number; maxBufferedBytes: number }> = {};
    const out = join(scratch(), 'large');
    await withReadSnapshot(test.store, test.dataDir, (db) =>
      exportTeam(db, team.id, { kind: 'team' }, {
        outDir: out, includeSecrets: false, storage: new LocalFileStorage(join(test.dataDir, 'files')), batchSize: 500, now: Date.now(),
        onBatch: (kind, size) => kind === 'messages' && pages.push(size),
        onFile: (kind, written) => (files[kind] = written),
      }),
    );
    // Every page is one query of at most 500 rows, and the file's stream never held much more than its high-water mark (16 KiB) unwritten.
    expect(pages).toHaveLength(count / 500);
    expect(Math.max(...pages)).toBe(500);
    expect(files.messages.count).toBe(count);
    expect(files.messages.maxBufferedBytes).toBeLessThan(16 * 1024 + 1024);
    expect(lines(out, 'messages.jsonl').map((message) => message.uid)).toEqual(rows.map((row) => row.uid));
  });
});

/** A copy of the export in `out` in the empty directory `dir`, changed by `change`. */
function brokenDir(out: string, dir: string, change: (dir: string) => void): string {
  const kinds = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).kinds as Record<string, { file: string }>;
  for (const name of ['manifest.json', ...Object.values(kinds).map((kind) => kind.file)]) writeFileSync(join(dir, name), readFileSync(join(out, name)));
  change(dir);
  return dir;
}
