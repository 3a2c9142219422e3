import { zoneOfOffset } from '@aviary/protocol';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import type { MigrationReport } from '../../src/store/migrator.js';
import { openStore, type Store } from '../../src/store/store.js';
import { http } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { rawCall } from '../helpers/server.js';
import { createTestStore } from '../helpers/store.js';
import { fixtureMigrations, fixtureNames, loadFixture, type FixtureStore } from './upgradeFixtures.js';
import { schemaOf, tableContents, type TableContents } from './upgradeSnapshots.js';

/** A user row as the fixture held it, its UTC offset made the zone migration 0031 makes of it. */
function zoneForOffset(row: string): string {
  const user = JSON.parse(row) as { timezone: string };
  return JSON.stringify({ ...user, timezone: /^[+-]\d\d:\d\d$/.test(user.timezone) ? zoneOfOffset(user.timezone) : user.timezone });
}

/**
 * Every store an earlier version made opens in this one: migrated to today's schema with every row as it
 * was, and what people held (tokens, sessions, passwords) still works. Fixtures: upgradeFixtures.ts.
 */
describe.each(dialects.flatMap((dialect) => fixtureNames.map((name) => ({ dialect, name }))))('the store $name made, on $dialect', ({ dialect, name }) => {
  let fixture: FixtureStore;
  let store: Store;
  let before: TableContents;
  let report: MigrationReport;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    fixture = await loadFixture(name, dialect);
    store = openStore({ dataDir: fixture.dataDir, databaseUrl: fixture.databaseUrl });
    before = await tableContents(store);
    report = await store.migrate();
  });
  afterAll(async () => {
    await (server ? server.close() : store?.close());
    await fixture?.remove();
  });

  it('held rows in every table before the upgrade', () => {
    for (const [table, rows] of Object.entries(before.rows)) {
      expect(rows.length, `${table} is empty in the fixture ${name}: give it a row in scripts/upgrade-fixture/fill.ts and make the fixture again`).toBeGreaterThan(0);
    }
  });

  it("records every migration of today's under its name, having applied the missing ones", async () => {
    const names = Object.keys(await migrationProvider.getMigrations());
    expect(report.latest).toBe(names.at(-1));
    expect(await store.planMigrations()).toEqual({ renamed: [], pending: [], latest: names.at(-1) });
    for (const applied of report.applied) expect(names).toContain(applied);
  });

  it('keeps every row of every table as it was, but for the UTC offsets that became zones (migration 0031)', async () => {
    const after = await tableContents(store, before.columns);
    const expected: Record<string, string[]> = { ...before.rows, users: before.rows.users!.map(zoneForOffset).sort() };
    expect(before.rows.users!.some((row) => /"timezone":"[+-]\d\d:\d\d"/.test(row)), 'the fixture’s people kept offsets').toBe(true);
    // SQLite's credentials version moves with every change of a user row (cached token rows hold the zone).
    const versions = (rows: string[] | undefined) => (rows ?? []).map((row) => (JSON.parse(row) as { version: number }).version);
    for (const table of before.columns.keys()) {
      if (table === 'credentials_version') expect(versions(after.rows[table])[0]).toBeGreaterThan(versions(before.rows[table])[0]!);
      else expect(after.rows[table], table).toEqual(expected[table]);
    }
  });

  it("has today's schema: the tables, columns, indexes and triggers of a new store", async () => {
    const fresh = await createTestStore(dialect);
    try {
      const today = await schemaOf(fresh.store, fresh.pgSchema);
      expect(today.tables.messages).toContain('edited_at');
      expect(today.indexes.length).toBeGreaterThan(10);
      expect(await schemaOf(store, undefined)).toEqual(today);
    } finally {
      await fresh.destroy();
    }
  });

  it('lets people in with the tokens, sessions and passwords they had, and takes new messages', async () => {
    const { facts } = fixture;
    const config = loadConfig({ port: 0, host: '127.0.0.1', dataDir: fixture.dataDir, databaseUrl: fixture.databaseUrl, logLevel: 'silent' }, {});
    server = await startServer(config, { store, migrate: false, now: () => facts.madeAt + 60_000 });
    const [maya, lucas] = facts.users;

    const info = await rawCall(server.url, 'users.getInfo', { query: { token: maya.token } });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ id: maya.id, firstName: maya.firstName });
    expect((await rawCall(server.url, 'users.getInfo', { query: { token: facts.app.botToken } })).body).toMatchObject({ id: facts.app.botUserId });

    const session = await http(server.url, 'GET', '/api/session', { headers: { authorization: `Bearer ${facts.sessionToken}` } });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ id: maya.id });

    expect((await http(server.url, 'POST', '/api/session', { json: { email: lucas.email, password: lucas.password } })).status).toBe(200);
    expect((await http(server.url, 'POST', '/api/session', { json: { email: lucas.email, password: `${lucas.password}x` } })).status).toBe(401);

    const sent = await rawCall(server.url, 'chat.sendMessage', { form: { token: maya.token, to: lucas.id, text: 'after the upgrade' } });
    expect(sent.status).toBe(200);
  });
});

it('has a fixture made by the last release, which recorded every released migration', () => {
  const released = JSON.parse(readFileSync(new URL('../../src/store/migrations/released.json', import.meta.url), 'utf8')) as { version: string; migrations: Array<{ name: string }> };
  const newest = Math.max(...fixtureNames.map((name) => fixtureMigrations(name).length));
  expect(newest, `make the fixture of ${released.version} (scripts/upgrade-fixture/make.sh)`).toBe(released.migrations.length);
});
