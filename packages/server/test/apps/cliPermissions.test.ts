import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runCli, runCliJson, tempDataDir } from '../cli/cli.js';

/** Without a running server: what the CLI stores is read back from the store itself. */
describe('aviary app create and team update: who may create apps, allowed origins', () => {
  const data = tempDataDir();
  const on = ['--data', data.dir];
  let teamId: string;
  let memberId: string;
  let guestId: string;

  beforeAll(async () => {
    teamId = (await runCliJson<{ id: string }>(['team', 'create', '--name', 'Stork Studio', ...on])).id;
    const person = (email: string, role: string) =>
      runCliJson<{ id: string }>(['user', 'create', '--team', teamId, '--email', email, '--first-name', 'P', '--last-name', 'Q', '--role', role, ...on]);
    [memberId, guestId] = (await Promise.all([person('member@stork.test', 'user'), person('guest@stork.test', 'guest')])).map(({ id }) => id);
  });
  afterAll(() => data.remove());

  async function storedOrigins(appId: string): Promise<unknown> {
    const store = openStore({ dataDir: data.dir });
    try {
      const app = await store.db.selectFrom('apps').select('allowed_origins').where('id', '=', appId).executeTakeFirstOrThrow();
      return JSON.parse(app.allowed_origins);
    } finally {
      await store.close();
    }
  }

  it('create stores --allowed-origin normalised, and refuses one with a path by its flag', async () => {
    const [app, withPath] = await Promise.all([
      runCliJson(['app', 'create', '--name', 'Kanban', '--developer', memberId, '--allowed-origin', 'HTTPS://Boards.Example/', '--allowed-origin', 'http://localhost:8080', ...on]),
      runCli(['app', 'create', '--name', 'X', '--developer', memberId, '--allowed-origin', 'https://boards.example/app', ...on, '--json']),
    ]);
    expect(await storedOrigins(app.id)).toEqual(['https://boards.example', 'http://localhost:8080']);
    expect(withPath.code).toBe(1);
    expect(JSON.parse(withPath.stdout)).toEqual({
      error: 'InvalidOption',
      description: expect.stringMatching(/^--allowed-origin "https:\/\/boards\.example\/app": must be an origin only, without a path/),
    });
  });

  it('refuses a guest developer until the team lets everyone create apps', async () => {
    const [refused, badChoice, noTeam] = await Promise.all([
      runCli(['app', 'create', '--name', 'Guestly', '--developer', guestId, ...on, '--json']),
      runCli(['team', 'update', '--team', teamId, '--app-creators', 'guests', ...on, '--json']),
      runCli(['team', 'update', '--team', 't:nosuchteam', '--app-creators', 'admins', ...on, '--json']),
    ]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'PermissionDenied', description: expect.stringMatching(/members and admins, not guests/) });
    expect(JSON.parse(badChoice.stdout)).toMatchObject({ error: 'InvalidUsage' });
    expect(JSON.parse(noTeam.stdout)).toMatchObject({ error: 'UnknownTeam' });

    expect(await runCliJson(['team', 'update', '--team', teamId, '--app-creators', 'everyone', ...on])).toEqual({ id: teamId, appCreators: 'everyone' });
    const app = await runCliJson(['app', 'create', '--name', 'Guestly', '--developer', guestId, ...on]);
    expect(app.id).toMatch(/^a:/);
  });
});
