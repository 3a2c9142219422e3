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
    const [app, badCommand, badDomain] = await Promise.all([
      runCliJson([
        'app', 'create', '--name', 'Poller', '--developer', developerId,
        '--slash-command', 'poll', '--slash-command', 'vote:https://poller.example/vote', '--preview-domain', '*.poller.example', ...on,
      ]),
      runCli(['app', 'create', '--name', 'X', '--developer', developerId, '--slash-command', 'ok', '--slash-command', '/nope', ...on, '--json']),
      runCli(['app', 'create', '--name', 'X', '--developer', developerId, '--preview-domain', 'Poller.example', ...on, '--json']),
    ]);
    expect((await storedApp(app.id)).integrations).toEqual({
      slashCommands: [
        { name: 'poll', action: { type: 'sendEvent' } },
        { name: 'vote', action: { type: 'openWidget', url: 'https://poller.example/vote' } },
      ],
      previewDomains: ['*.poller.example'],
    });
    expect(badCommand.code).toBe(1);
    expect(JSON.parse(badCommand.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--slash-command "\/nope": slashCommands\[1\]\.name must be/) });
    expect(JSON.parse(badDomain.stdout)).toMatchObject({ error: 'InvalidOption', description: expect.stringMatching(/^--preview-domain "Poller\.example": .*lower case/) });
  });

  it('integrations --file replaces them, validated with the exact path of a wrong field', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Filed', '--developer', developerId, '--slash-command', 'old', ...on]);
    const file = (name: string, text: string) => {
      const path = join(data.dir, name);
      writeFileSync(path, text);
      return path;
    };
    const good = file('good.json', JSON.stringify({ launcherButton: { name: 'Open', action: { type: 'sendToApp' } }, previewDomains: ['filed.example'] }));
    const wrong = file('wrong.json', JSON.stringify({ messageAction: { name: 'M', action: { type: 'openBrowser' } } }));
    const broken = file('broken.json', '{nope');
    const [set, refused, unreadable] = await Promise.all([
      runCliJson(['app', 'integrations', '--app', app.id, '--file', good, ...on]),
      runCli(['app', 'integrations', '--app', app.id, '--file', wrong, ...on, '--json']),
      runCli(['app', 'integrations', '--app', app.id, '--file', broken, ...on, '--json']),
    ]);
    expect(set).toEqual({
      id: app.id,
      integrations: { slashCommands: [], launcherButton: { name: 'Open', action: { type: 'sendEvent' } }, previewDomains: ['filed.example'] },
    });
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/messageAction\.action\.url is required/) });
    expect(JSON.parse(unreadable.stdout).description).toMatch(/not valid JSON/);
    expect((await storedApp(app.id)).integrations.launcherButton).toEqual({ name: 'Open', action: { type: 'sendEvent' } });
  });

  it('bot --regenerate needs an enabled bot and issues a new token; exactly one of --enable and --regenerate', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Botling', '--developer', developerId, ...on]);
    const [early, neither] = await Promise.all([
      runCli(['app', 'bot', '--app', app.id, '--regenerate', ...on, '--json']),
      runCli(['app', 'bot', '--app', app.id, ...on, '--json']),
    ]);
    expect(JSON.parse(early.stdout)).toMatchObject({ error: 'BotNotEnabled' });
    expect(JSON.parse(neither.stdout)).toMatchObject({ error: 'InvalidUsage' });
    const enabled = await runCliJson(['app', 'bot', '--app', app.id, '--enable', ...on]);
    const regenerated = await runCliJson(['app', 'bot', '--app', app.id, '--regenerate', ...on]);
    expect(regenerated.botUserId).toBe(enabled.botUserId);
    expect(regenerated.botToken).not.toBe(enabled.botToken);
  });

  it('install delivers a verified app.install; a refusing listener installs nothing; uninstall leaves app.uninstall in the outbox', async () => {
    const [app, unreachable] = await Promise.all([
      runCliJson(['app', 'create', '--name', 'Hooked', '--developer', developerId, '--listener-url', listener.url, ...on]),
      runCliJson(['app', 'create', '--name', 'Gone', '--developer', developerId, '--listener-url', await refusingUrl(), ...on]),
    ]);
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

    const refused = await runCli(['app', 'install', '--app', unreachable.id, '--user', developerId, ...on, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: 'InstallFailed', description: expect.stringMatching(/its event listener could not be reached\. /) });
    expect((await storedApp(unreachable.id)).installs).toEqual([]);
  });
});
