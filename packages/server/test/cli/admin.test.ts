import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { getInfo, runCli, runCliJson, startCliServer, tempDataDir, type CliServer } from './cli.js';

describe('team, user and app commands, while `aviary serve` runs on the same SQLite store', () => {
  const data = tempDataDir();
  const on = ['--data', data.dir];
  let server: CliServer;
  let teamId: string;
  let developerId: string;
  // Installing delivers app.install, which the app's listener must accept.
  let listener: TestListener;

  beforeAll(async () => {
    listener = await startListener();
    server = await startCliServer(on);
    teamId = (await runCliJson<{ id: string }>(['team', 'create', '--name', 'Kestrel Labs', ...on])).id;
    developerId = (await runCliJson<{ id: string }>(['user', 'create', '--team', teamId, '--email', 'dev@kestrel.test', '--first-name', 'Dana', '--last-name', 'Dev', ...on])).id;
  });
  afterAll(async () => {
    await server.stop();
    await listener.close();
    data.remove();
  });

  it('user create prints the person as users.getInfo does, and the store keeps the password hashed', async () => {
    const created = await runCliJson([
      'user', 'create', '--team', teamId, '--email', 'Ravi@Kestrel.test', '--first-name', 'Ravi', '--last-name', 'Kumar',
      '--password', 'correct horse', '--role', 'guest', '--timezone', 'Asia/Kolkata', ...on,
    ]);
    expect(created).toEqual({
      id: expect.stringMatching(/^u:[a-z2-7]{16}$/), teamId, email: 'ravi@kestrel.test', firstName: 'Ravi', lastName: 'Kumar', role: 'guest', timezone: '+05:30', timeZone: 'Asia/Kolkata',
    });
    const store = openStore({ dataDir: data.dir });
    const row = await store.db.selectFrom('users').select('password_hash').where('id', '=', created.id).executeTakeFirstOrThrow();
    await store.close();
    expect(row.password_hash).toMatch(/^scrypt\$/);
  });

  it('app create, bot --enable and install give a secret and tokens that the running server accepts', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Standup', '--developer', developerId, '--description', 'Daily standups', '--listener-url', listener.url, ...on]);
    expect(app).toEqual({ id: expect.stringMatching(/^a:/), secret: expect.stringMatching(/^as_/) });

    const bot = await runCliJson(['app', 'bot', '--app', app.id, '--enable', ...on]);
    expect(bot).toEqual({ botUserId: expect.stringMatching(/^u:/), botToken: expect.stringMatching(/^ab_/) });
    expect(await getInfo(server.url, bot.botToken)).toEqual({
      status: 200, body: expect.objectContaining({ id: bot.botUserId, firstName: 'Standup', lastName: 'Bot', isBot: true, teamId }),
    });

    const { token } = await runCliJson(['app', 'install', '--app', app.id, '--user', developerId, ...on]);
    expect(token).toMatch(/^au_/);
    expect(await getInfo(server.url, token)).toEqual({ status: 200, body: expect.objectContaining({ id: developerId, email: 'dev@kestrel.test' }) });

    const store = openStore({ dataDir: data.dir });
    const row = await store.db.selectFrom('apps').select(['team_id', 'description', 'listener_url']).where('id', '=', app.id).executeTakeFirstOrThrow();
    await store.close();
    expect(row).toEqual({ team_id: teamId, description: 'Daily standups', listener_url: listener.url });
  });

  it('enabling the bot again issues a new token and retires the old one', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Rotator', '--developer', developerId, ...on]);
    const first = await runCliJson(['app', 'bot', '--app', app.id, '--enable', ...on]);
    const second = await runCliJson(['app', 'bot', '--app', app.id, '--enable', ...on]);
    expect(second.botUserId).toBe(first.botUserId);
    expect((await getInfo(server.url, first.botToken)).body.error).toBe('InvalidToken');
    expect((await getInfo(server.url, second.botToken)).status).toBe(200);
  });

  it('uninstall revokes the person’s token; uninstalling again is an error', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Short lived', '--developer', developerId, '--listener-url', listener.url, ...on]);
    const { token } = await runCliJson(['app', 'install', '--app', app.id, '--user', developerId, ...on]);
    expect(await runCliJson(['app', 'uninstall', '--app', app.id, '--user', developerId, ...on])).toEqual({
      appId: app.id, userId: developerId, uninstalled: true,
    });
    expect(await getInfo(server.url, token)).toEqual({ status: 403, body: expect.objectContaining({ error: 'InvalidToken' }) });
    const again = await runCli(['app', 'uninstall', '--app', app.id, '--user', developerId, ...on, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error).toBe('NotInstalled');
  });

  it('install of an app with no listener URL says why, and with --forward-to (where `aviary listen` forwards) installs it', async () => {
    const app = await runCliJson(['app', 'create', '--name', 'Listen only', '--developer', developerId, ...on]);
    const refused = await runCli(['app', 'install', '--app', app.id, '--user', developerId, ...on, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: 'InstallFailed' });
    expect(JSON.parse(refused.stdout).description).toMatch(/no event listener URL and no open `aviary listen` connection.*give --forward-to/);
    const before = listener.received.length;
    const { token } = await runCliJson(['app', 'install', '--app', app.id, '--user', developerId, '--forward-to', listener.url, ...on]);
    // Only this install: an earlier test's uninstall event may still arrive meanwhile (it is asynchronous).
    expect(listener.received.slice(before).filter((request) => request.body.name === 'app.install')).toHaveLength(1);
    expect(await getInfo(server.url, token)).toEqual({ status: 200, body: expect.objectContaining({ id: developerId }) });
  });

  it('without --json prints readable lines that carry the secret or token', async () => {
    const created = await runCli(['app', 'create', '--name', 'Readable', '--developer', developerId, '--listener-url', listener.url, ...on]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Created app "Readable" a:\S+ in team t:\S+\.\nsecret: as_\S+\n$/);
    const appId = /(a:\S+)/.exec(created.stdout)?.[1] ?? '';
    const installed = await runCli(['app', 'install', '--app', appId, '--user', developerId, ...on]);
    const token = /^token: (\S+)$/m.exec(installed.stdout)?.[1] ?? '';
    expect((await getInfo(server.url, token)).status).toBe(200);
  });

  // Seventeen CLI commands at once: give a loaded machine time.
  it('refuses bad input with exit 1, a message on stderr and with --json exactly one error object on stdout', { timeout: 120_000 }, async () => {
    const otherTeam = (await runCliJson<{ id: string }>(['team', 'create', '--name', 'Elsewhere', ...on])).id;
    const outsider = (await runCliJson<{ id: string }>(['user', 'create', '--team', otherTeam, '--email', 'o@else.test', '--first-name', 'O', '--last-name', 'U', ...on])).id;
    const app = await runCliJson(['app', 'create', '--name', 'Checks', '--developer', developerId, ...on]);
    const person = (more: string[]) => ['user', 'create', '--team', teamId, '--first-name', 'A', '--last-name', 'B', ...more];
    const cases: Array<[string[], string, RegExp]> = [
      [['team', 'create', '--name', '   '], 'InvalidOption', /--name must not be empty/],
      [person(['--email', 'x@kestrel.test']).map((arg) => (arg === teamId ? 't:nosuchteam' : arg)), 'UnknownTeam', /no team "t:nosuchteam"/],
      [person(['--email', 'DEV@kestrel.test']), 'EmailTaken', /dev@kestrel\.test already belongs/],
      [person(['--email', 'not-an-email']), 'InvalidOption', /--email must be an email address/],
      [person(['--email', 'tz@kestrel.test', '--timezone', 'Mars/Olympus_Mons']), 'InvalidOption', /--timezone must be an IANA time zone/],
      [person(['--email', 'pw@kestrel.test', '--password', 'short']), 'InvalidOption', /at least 8 characters/],
      [person(['--email', 'role@kestrel.test', '--role', 'owner']), 'InvalidUsage', /owner/],
      [['user', 'create', '--team', teamId], 'InvalidUsage', /required option/],
      [['app', 'create', '--name', 'X', '--developer', 'u:aaaaaaaaaaaaaaaa'], 'UnknownUser', /no user "u:aaaaaaaaaaaaaaaa"/],
      [['app', 'create', '--name', 'X', '--developer', developerId, '--listener-url', 'not a url'], 'InvalidOption', /--listener-url must be an http or https URL/],
      [['app', 'create', '--name', 'X', '--developer', developerId, '--listener-url', 'ftp://127.0.0.1/x'], 'InvalidOption', /scheme "ftp:"/],
      // The API's URL check: the WHATWG parser would quietly encode the space, the API refuses it.
      [['app', 'create', '--name', 'X', '--developer', developerId, '--listener-url', 'http://example.com/a b'], 'InvalidOption', /percent-encode it/],
      // The app and person fields have one check, the API's: the same limits, worded for the options.
      [['app', 'create', '--name', 'x'.repeat(81), '--developer', developerId], 'InvalidOption', /--name is 81 characters long; the limit is 80\./],
      [['app', 'create', '--name', '   ', '--developer', developerId], 'InvalidOption', /--name is required and must not be empty\./],
      [person(['--email', 'blank@kestrel.test']).map((arg) => (arg === 'A' ? '  ' : arg)), 'InvalidOption', /--first-name is required and must not be empty\./],
      [['app', 'bot', '--app', 'a:nosuchapp', '--enable'], 'UnknownApp', /no app "a:nosuchapp"/],
      [['app', 'install', '--app', app.id, '--user', outsider], 'UnknownUser', /not in the app’s team/],
      [['app', 'install', '--app', app.id, '--user', 'u:bbbbbbbbbbbbbbbb'], 'UnknownUser', /no user/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli([...args, ...on, '--json'])));
    results.forEach((result, i) => {
      const [args, code, description] = cases[i];
      const context = `aviary ${args.join(' ')}`;
      expect(result.code, context).toBe(1);
      expect(result.stdout.trim().split('\n'), context).toHaveLength(1);
      expect(JSON.parse(result.stdout), context).toEqual({ error: code, description: expect.stringMatching(description) });
      expect(result.stderr, context).toMatch(description);
    });
  });

  it('without --json an error leaves stdout empty', async () => {
    const result = await runCli(['app', 'bot', '--app', 'a:nosuchapp', '--enable', ...on]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'aviary: There is no app "a:nosuchapp".\n' });
  });
});

describe('a command on a fresh data directory', () => {
  it('migrates the store first, so a team can be made by hand; AVIARY_DATA_DIR names the directory', async () => {
    const data = tempDataDir();
    try {
      const team = await runCliJson(['team', 'create', '--name', 'From scratch'], { AVIARY_DATA_DIR: data.dir });
      const store = openStore({ dataDir: data.dir });
      const row = await store.db.selectFrom('teams').selectAll().where('id', '=', team.id).executeTakeFirst();
      await store.close();
      expect(row?.name).toBe('From scratch');
    } finally {
      data.remove();
    }
  });
});
