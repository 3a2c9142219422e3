import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../src/core/commands/seedDemo.js';
import { openStore } from '../../src/store/store.js';
import { dialects, postgresTestUrl } from '../helpers/dialects.js';
import { startListener } from '../helpers/listener.js';
import { adminQuery } from '../helpers/store.js';
import { getInfo, runCli, runCliJson, startCliServer, tempDataDir } from './cli.js';


// The CLI takes a plain URL (no schema of its own), so this suite makes a database for itself.
describe.skipIf(!dialects.includes('postgres'))('the CLI on PostgreSQL', () => {
  const database = `aviary_cli_${randomBytes(6).toString('hex')}`;
  const url = Object.assign(new URL(postgresTestUrl), { pathname: `/${database}` }).toString();
  const data = tempDataDir();

  beforeAll(() => adminQuery(`create database ${database}`));
  afterAll(async () => {
    await adminQuery(`drop database if exists ${database} with (force)`);
    data.remove();
  });

  it('seeds with --database-url, serves with DATABASE_URL, and the demo tokens work', async () => {
    const demo = await runCliJson<DemoCredentials>(['seed', '--demo', '--database-url', url, '--data', data.dir]);
    const store = openStore({ databaseUrl: url, dataDir: data.dir });
    const messages = await store.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    await store.close();
    expect(Number(messages.count)).toBeGreaterThanOrEqual(200);

    const server = await startCliServer(['--data', data.dir], { DATABASE_URL: url });
    const listener = await startListener();
    try {
      expect((await getInfo(server.url, demo.users[2].token)).body.id).toBe(demo.users[2].id);
      const person = await runCliJson(['user', 'create', '--team', demo.teamId, '--email', 'pg@example.com', '--first-name', 'Post', '--last-name', 'Gres', '--data', data.dir], {
        DATABASE_URL: url,
      });
      // Installing delivers app.install, which the app's listener must accept.
      const app = await runCliJson(['app', 'create', '--name', 'Hooked', '--developer', person.id, '--listener-url', listener.url, '--database-url', url, '--data', data.dir]);
      const { token } = await runCliJson(['app', 'install', '--app', app.id, '--user', person.id, '--database-url', url, '--data', data.dir]);
      expect((await getInfo(server.url, token)).body).toEqual(expect.objectContaining({ id: person.id, email: 'pg@example.com' }));
    } finally {
      expect(await server.stop()).toBe(0);
      await listener.close();
    }
  });

  it('reports an unreachable database clearly', async () => {
    const result = await runCli(['team', 'create', '--name', 'Nowhere', '--database-url', 'postgres://postgres@127.0.0.1:1/none', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'StoreUnavailable', description: expect.stringMatching(/^The database could not be reached: .*ECONNREFUSED/) });
  });
});
