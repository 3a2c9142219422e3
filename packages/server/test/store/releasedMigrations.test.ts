import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { renamedMigrations } from '../../src/store/renamedMigrations.js';

/**
 * Released migrations are append-only (docs/testing.md, "Releasing"): databases record them by name and
 * never run them again, so a renamed one strands every database that ran it (as 0005_listener_backoff
 * did), and an edited one leaves databases that ran its first text with another schema.
 */
const folder = new URL('../../src/store/migrations/', import.meta.url);
const released = JSON.parse(readFileSync(new URL('released.json', folder), 'utf8')) as { version: string; migrations: Array<{ name: string; sha256: string }> };
const fileHash = (name: string) => createHash('sha256').update(readFileSync(new URL(`${name}.ts`, folder), 'utf8').replaceAll('\r\n', '\n')).digest('hex');

it("today's migrations begin with the released ones, in their order and under their names", async () => {
  const names = Object.keys(await migrationProvider.getMigrations());
  expect(names.slice(0, released.migrations.length), `released in ${released.version}: never rename, remove or reorder these`).toEqual(
    released.migrations.map((migration) => migration.name),
  );
  // Kysely applies migrations in the order of their names: a new one sorts after every released one.
  expect(names).toEqual([...names].sort());
  expect(new Set(names).size).toBe(names.length);
});

it('no released migration has been edited since its release', () => {
  for (const migration of released.migrations) {
    expect(fileHash(migration.name), `${migration.name}.ts changed after its release in ${released.version}: write a new migration instead`).toBe(migration.sha256);
  }
});

it('each migration is the file of its name, and no earlier name is used again', async () => {
  const names = Object.keys(await migrationProvider.getMigrations());
  const files = readdirSync(folder).filter((file) => /^\d{4}_\w+\.ts$/.test(file)).sort();
  expect(files.map((file) => file.replace(/\.ts$/, ''))).toEqual(names);
  for (const { from, to } of renamedMigrations) {
    expect(names).not.toContain(from);
    expect(released.migrations.map((migration) => migration.name)).toContain(to);
  }
});
