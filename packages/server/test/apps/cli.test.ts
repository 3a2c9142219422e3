import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runCli, runCliJson, tempDataDir } from '../cli/cli.js';
import { refusingUrl, startAppListener, type AppListener } from './harness.js';

/** Without a running server: what the CLI stores is read back from the store itself. */
describe('aviary app: integrations, bot tokens, installs through the listener', () => {
  const data = tempDataDir();
  const on = ['--data', data.dir];
  let developerId: string;
  let listener: AppListener;

  beforeAll(async () => {
    listener = await startAppListener();
    const teamId = (await runCliJson<{ id: string }>(['team', 'create', '--name', 'Wren Works', ...on])).id;
    developerId = (await runCliJson<{ id: string }>(['user', 'create', '--team', teamId, '--email', 'dev@wren.test', '--first-name', 'D', '--last-name', 'V', ...on])).id;
  });
  afterAll(async () => {
    await listener.close();
    data.remove();
  });

  async function storedApp(appId: string) {
    const store = openStore({ dataDir: data.dir });
    try {
      const app = await store.db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirstOrThrow();
      const events = await store.db.selectFrom('events').select(['name', 'status']).where('app_id', '=', appId).orderBy('id').execute();
      const installs = await store.db.selectFrom('installs').select('user_id').where('app_id', '=', appId).execute();
      return { integrations: JSON.parse(app.integrations), events, installs };
    } finally {
      await store.close();
    }
  }

  it('create takes slash commands and preview domains, and refuses a bad one by its flag', async () => {
    const app = await runCliJson([
      'app', 'create', '--name', 'Poller', '--developer', developerId,
      '--slash-command', 'poll', '--slash-command', 'vote:https://poller.example/vote', '--preview-domain', '*.poller.example', ...on,
    ]);
    expect((await storedApp(app.id)).integrations).toEqual({
      slashCommands: [
        { name: 'poll', action: { type: 'sendEvent' } },
        { name: 'vote', action: { type: 'openWidget', url: 'https://poller.example/vote' } },
      ],
      previewDomains: ['*.poller.example'],
    });
    const badCommand = await runCli(['app', 'create', '--name', 'X', '--developer', developerId, '--slash-command', 'ok', '--slash-command', '/nope', ...on, '--json']);
    expect(badCommand.code).toBe(1);
    expect(JSON.parse(badCommand.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--slash-command "\/nope": slashCommands\[1\]\.name must be/) });
    const badDomain = await runCli(['app', 'create', '--name', 'X', '--developer', developerId, '--preview-domain', 'Poller.example', ...on, '--json']);
    expect(JSON.parse(badDomain.stdout)).toMatchObject({ error: 'InvalidOption', description: expect.stringMatching(/^--preview-domain "Poller\.example": .*lower case/) });
  });

  it('integrations --file replaces them, validated with the exact path of a wrong field', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Filed', '--developer', developerId, '--slash-command', 'old', ...on]);
    const file = join(data.dir, 'integrations.json');
    writeFileSync(file, JSON.stringify({ launcherButton: { name: 'Open', action: { type: 'sendToApp' } }, previewDomains: ['filed.example'] }));
    expect(await runCliJson(['app', 'integrations', '--app', app.id, '--file', file, ...on])).toEqual({
      id: app.id,
      integrations: { slashCommands: [], launcherButton: { name: 'Open', action: { type: 'sendEvent' } }, previewDomains: ['filed.example'] },
    });
    writeFileSync(file, JSON.stringify({ messageAction: { name: 'M', action: { type: 'openBrowser' } } }));
    const refused = await runCli(['app', 'integrations', '--app', app.id, '--file', file, ...on, '--json']);
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/messageAction\.action\.url is required/) });
    writeFileSync(file, '{nope');
    expect(JSON.parse((await runCli(['app', 'integrations', '--app', app.id, '--file', file, ...on, '--json'])).stdout).description).toMatch(/not valid JSON/);
    expect((await storedApp(app.id)).integrations.launcherButton).toEqual({ name: 'Open', action: { type: 'sendEvent' } });
  });

  it('bot --regenerate needs an enabled bot and issues a new token; exactly one of --enable and --regenerate', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Botling', '--developer', developerId, ...on]);
    const early = await runCli(['app', 'bot', '--app', app.id, '--regenerate', ...on, '--json']);
    expect(JSON.parse(early.stdout)).toMatchObject({ error: 'BotNotEnabled' });
    expect(JSON.parse((await runCli(['app', 'bot', '--app', app.id, ...on, '--json'])).stdout)).toMatchObject({ error: 'InvalidUsage' });
    const enabled = await runCliJson(['app', 'bot', '--app', app.id, '--enable', ...on]);
    const regenerated = await runCliJson(['app', 'bot', '--app', app.id, '--regenerate', ...on]);
    expect(regenerated.botUserId).toBe(enabled.botUserId);
    expect(regenerated.botToken).not.toBe(enabled.botToken);
  });

  it('install delivers a verified app.install; a refusing listener installs nothing; uninstall leaves app.uninstall in the outbox', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Hooked', '--developer', developerId, '--listener-url', listener.url, ...on]);
    const store = openStore({ dataDir: data.dir });
    const secret = (await store.db.selectFrom('apps').select('secret').where('id', '=', app.id).executeTakeFirstOrThrow()).secret;
    await store.close();
    listener.useCredentials(app.id, secret);
    const { token } = await runCliJson(['app', 'install', '--app', app.id, '--user', developerId, ...on]);
    const [install] = await listener.waitForVerified(1);
    expect(install.event).toEqual({ name: 'app.install', userId: developerId, token, userToken: token });

    await runCliJson(['app', 'uninstall', '--app', app.id, '--user', developerId, ...on]);
    expect(await storedApp(app.id)).toMatchObject({
      installs: [],
      events: [{ name: 'app.install', status: 'delivered' }, { name: 'app.uninstall', status: 'pending' }],
    });

    const unreachable = await runCliJson(['app', 'create', '--name', 'Gone', '--developer', developerId, '--listener-url', await refusingUrl(), ...on]);
    const refused = await runCli(['app', 'install', '--app', unreachable.id, '--user', developerId, ...on, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'InstallFailed', description: expect.stringMatching(/refused the connection/) });
    expect((await storedApp(unreachable.id)).installs).toEqual([]);
  });
});
