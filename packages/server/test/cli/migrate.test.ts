import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { aviaryVersion } from '../../src/version.js';
import { dialects } from '../helpers/dialects.js';
import { loadFixture } from '../store/upgradeFixtures.js';
import { runCli, runCliJson } from './cli.js';
import { cliStore } from './stores.js';

const names = Object.keys(await migrationProvider.getMigrations());
const latest = names.at(-1)!;

describe.each(dialects)('aviary migrate on %s', (dialect) => {
  const removals: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const remove of removals.splice(0)) await remove();
  });
  const newStore = async () => {
    const store = await cliStore(dialect);
    removals.push(store.remove);
    return store;
  };

  it('lists what it would apply with --dry-run, prints what it applied, and then that nothing is left', async () => {
    const { on, open } = await newStore();
    expect(await runCliJson(['migrate', '--dry-run', '--json', ...on])).toEqual({ schema: latest, pending: names, renamed: [] });
    const dryRun = await runCli(['migrate', '--dry-run', ...on]);
    expect(dryRun.stdout).toBe([`Would apply ${names.length} migrations:`, ...names.map((name) => `  ${name}`), `The store's schema would then be ${latest}.`, ''].join('\n'));

    const applied = await runCli(['migrate', ...on]);
    expect(applied).toEqual({ code: 0, stdout: [`Applied ${names.length} migrations:`, ...names.map((name) => `  ${name}`), `The store's schema is now ${latest}.`, ''].join('\n'), stderr: '' });
    const store = open();
    try {
      expect(await store.db.selectFrom('teams').selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }

    expect(await runCli(['migrate', ...on])).toEqual({ code: 0, stdout: `Nothing to apply: the store's schema is up to date (${latest}).\n`, stderr: '' });
    expect(await runCliJson(['migrate', '--json', ...on])).toEqual({ schema: latest, applied: [], renamed: [] });
    expect(await runCliJson(['migrate', '--dry-run', '--json', ...on])).toEqual({ schema: latest, pending: [], renamed: [] });
  });

  it('upgrades a store of commit 85fe844: renames the record of its renumbered migration, then applies the rest', async () => {
    const fixture = await loadFixture('85fe844', dialect);
    removals.push(fixture.remove);
    const on = ['--data', fixture.dataDir, ...(fixture.databaseUrl ? ['--database-url', fixture.databaseUrl] : [])];
    // What 85fe844 lacked of 0.10.0, then every migration since.
    const pending = ['0005_events_by_status', '0007_stream', '0008_secret_grace', ...names.slice(names.indexOf('0009_message_edits'))];
    const renamed = [{ from: '0005_listener_backoff', to: '0006_listener_backoff' }];
    expect(await runCliJson(['migrate', '--dry-run', '--json', ...on])).toEqual({ schema: latest, pending, renamed });
    const upgrade = await runCli(['migrate', ...on]);
    expect(upgrade.stdout).toBe(
      [
        'Renamed the record of 0005_listener_backoff to 0006_listener_backoff (its name before Aviary 0.10.0).',
        `Applied ${pending.length} migrations:`,
        ...pending.map((name) => `  ${name}`),
        `The store's schema is now ${latest}.`,
        '',
      ].join('\n'),
    );
    expect(await runCliJson(['migrate', '--dry-run', '--json', ...on])).toEqual({ schema: latest, pending: [], renamed: [] });
  });

  it('refuses a store a newer version migrated, and so does serve, saying why', async () => {
    const { on, open } = await newStore();
    await runCliJson(['migrate', '--json', ...on]);
    const store = open();
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('0999_from_a_newer_version', '2030-01-01T00:00:00.000Z')`.execute(store.db);
    } finally {
      await store.close();
    }
    const why = `This database was migrated by a newer version of Aviary: it records the migration 0999_from_a_newer_version, which Aviary ${aviaryVersion} does not know (its last is ${latest}). Run the newer version on it, or restore the backup taken before that upgrade.`;
    expect(await runCli(['migrate', ...on])).toEqual({ code: 1, stdout: '', stderr: `aviary: ${why}\n` });
    expect(await runCli(['migrate', '--dry-run', '--json', ...on])).toEqual({ code: 1, stdout: `${JSON.stringify({ error: 'StoreNewer', description: why })}\n`, stderr: `aviary: ${why}\n` });
    expect(await runCli(['serve', '--port', '0', ...on])).toEqual({ code: 1, stdout: '', stderr: `aviary: ${why}\n` });
  });
});
