import { afterAll, expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/store.js';
import { runCli, runCliJson, tempDataDir } from './cli.js';

const data = tempDataDir();
afterAll(() => data.remove());

it('aviary migrate brings a new store to the latest schema, says which, and changes nothing when run again', async () => {
  const latest = Object.keys(await migrationProvider.getMigrations()).at(-1);
  expect(await runCliJson(['migrate', '--data', data.dir])).toEqual({ schema: latest });

  const store = openStore({ dataDir: data.dir });
  try {
    expect(await store.db.selectFrom('teams').selectAll().execute()).toEqual([]);
  } finally {
    await store.close();
  }
  const again = await runCli(['migrate', '--data', data.dir]);
  expect(again).toEqual({ code: 0, stdout: `The store's schema is up to date (${latest}).\n`, stderr: '' });
});
