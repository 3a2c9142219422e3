import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { storeContext } from '../../src/core/context.js';
import { dialects } from '../helpers/dialects.js';
import { runCli, runCliJson, tempDataDir } from './cli.js';
import { cliStore, teamWithDeveloper, type CliStore } from './stores.js';

describe.each(dialects)('app list|show|update|delete, user list and channel list (%s)', (dialect) => {
  let store: CliStore;
  let on: string[];
  let teamId: string;
  let developerId: string;
  const files = tempDataDir();

  beforeAll(async () => {
    store = await cliStore(dialect);
    on = store.on;
    ({ teamId, developerId } = await teamWithDeveloper(on));
  });
  afterAll(async () => {
    await store.remove();
    files.remove();
  });

  it('app list and show print the developer methods’ app object; only show --show-secret has the secret', async () => {
    const created = await runCliJson(['app', 'create', '--name', 'Lister', '--developer', developerId, '--listener-url', 'https://hooks.example/lister', ...on]);
    const { apps } = await runCliJson(['app', 'list', '--developer', developerId, ...on]);
    expect(apps).toEqual([
      expect.objectContaining({ id: created.id, name: 'Lister', teamId, developerId, listenerUrl: 'https://hooks.example/lister', integrations: { slashCommands: [], previewDomains: [] } }),
    ]);
    expect(apps[0]).not.toHaveProperty('secret');
    expect((await runCliJson(['app', 'show', '--app', created.id, ...on])).app).toEqual(apps[0]);
    expect((await runCliJson(['app', 'show', '--app', created.id, '--show-secret', ...on])).app.secret).toBe(created.secret);

    const table = await runCli(['app', 'list', '--team', teamId, ...on]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+TEAM\s+DEVELOPER\s+LISTENER URL$/);
    expect(table.stdout).toContain(created.id);
    expect((await runCliJson(['app', 'list', '--team', 't:nosuchteam00000', ...on])).apps).toEqual([]);
  });

  it('app update changes only the fields given, through the API’s checks, and names the refused option', async () => {
    const created = await runCliJson(['app', 'create', '--name', 'Updater', '--developer', developerId, '--description', 'before', ...on]);
    const integrations = join(files.dir, 'integrations.json');
    writeFileSync(integrations, JSON.stringify({ slashCommands: [{ name: 'weather', description: 'the forecast', action: { type: 'sendEvent' } }] }));
    const { app } = await runCliJson([
      'app', 'update', '--app', created.id, '--listener-url', 'https://hooks.example/new', '--allowed-origin', 'https://widgets.example',
      '--integrations-file', integrations, ...on,
    ]);
    expect(app).toEqual(expect.objectContaining({
      name: 'Updater', description: 'before', listenerUrl: 'https://hooks.example/new', allowedOrigins: ['https://widgets.example'],
      integrations: { slashCommands: [{ name: 'weather', description: 'the forecast', action: { type: 'sendEvent' } }], previewDomains: [] },
    }));
    const cleared = await runCliJson(['app', 'update', '--app', created.id, '--listener-url', '', '--no-allowed-origins', ...on]);
    expect(cleared.app).toEqual(expect.objectContaining({ listenerUrl: null, allowedOrigins: [], description: 'before' }));

    const badUrl = await runCli(['app', 'update', '--app', created.id, '--listener-url', 'ftp://files.example', '--json', ...on]);
    expect(badUrl.code).toBe(1);
    expect(JSON.parse(badUrl.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--listener-url /) });
    const badOrigin = await runCli(['app', 'update', '--app', created.id, '--allowed-origin', 'https://ok.example', '--allowed-origin', 'not an origin', '--json', ...on]);
    expect(JSON.parse(badOrigin.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--allowed-origin "not an origin": /) });
    const nothing = await runCli(['app', 'update', '--app', created.id, '--json', ...on]);
    expect(JSON.parse(nothing.stdout).error).toBe('InvalidUsage');
    const unknown = await runCli(['app', 'update', '--app', 'a:nosuchapp000000', '--name', 'x', '--json', ...on]);
    expect(JSON.parse(unknown.stdout).error).toBe('UnknownApp');
  });

  it('app create and app update turn Flock-compatible naming on and off; it is off by default', async () => {
    const plain = await runCliJson(['app', 'create', '--name', 'Plain', '--developer', developerId, ...on]);
    expect((await runCliJson(['app', 'show', '--app', plain.id, ...on])).app.flockNaming).toBe(false);
    const flocked = await runCliJson(['app', 'create', '--name', 'Flocked', '--developer', developerId, '--flock-naming', ...on]);
    expect((await runCliJson(['app', 'show', '--app', flocked.id, ...on])).app.flockNaming).toBe(true);
    expect((await runCliJson(['app', 'update', '--app', flocked.id, '--no-flock-naming', ...on])).app.flockNaming).toBe(false);
    expect((await runCliJson(['app', 'update', '--app', plain.id, '--flock-naming', ...on])).app.flockNaming).toBe(true);
    expect((await runCli(['app', 'show', '--app', plain.id, ...on])).stdout).toMatch(/Flock naming\s+on/);
    // Another change leaves the setting as it is.
    expect((await runCliJson(['app', 'update', '--app', plain.id, '--description', 'still Flock-named', ...on])).app.flockNaming).toBe(true);
  });

  it('app create and app update choose the events an app receives; --default-events goes back to the defaults', async () => {
    const chosen = await runCliJson(['app', 'create', '--name', 'Chooser', '--developer', developerId, '--event', 'client.slashCommand', '--event', 'app.install', ...on]);
    expect((await runCliJson(['app', 'show', '--app', chosen.id, ...on])).app.eventSubscriptions).toEqual(['app.install', 'client.slashCommand']);
    expect((await runCliJson(['app', 'update', '--app', chosen.id, '--event', 'chat.receiveMessage', ...on])).app.eventSubscriptions).toEqual(['chat.receiveMessage']);
    expect((await runCli(['app', 'show', '--app', chosen.id, ...on])).stdout).toMatch(/events\s+chat\.receiveMessage/);
    expect((await runCliJson(['app', 'update', '--app', chosen.id, '--default-events', ...on])).app.eventSubscriptions).toBeNull();
    const unknown = await runCli(['app', 'update', '--app', chosen.id, '--event', 'app.install', '--event', 'message.sent', '--json', ...on]);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: 'InvalidOption', description: expect.stringMatching(/^--event "message.sent": names no event/) });
    const both = await runCli(['app', 'update', '--app', chosen.id, '--event', 'app.install', '--default-events', '--json', ...on]);
    expect(JSON.parse(both.stdout).error).toBe('InvalidUsage');
  });

  it('app delete wants --yes, then the app is gone', async () => {
    const created = await runCliJson(['app', 'create', '--name', 'Doomed', '--developer', developerId, ...on]);
    const unconfirmed = await runCli(['app', 'delete', '--app', created.id, '--json', ...on]);
    expect(JSON.parse(unconfirmed.stdout)).toEqual({ error: 'InvalidUsage', description: expect.stringContaining('--yes') });
    expect(await runCliJson(['app', 'delete', '--app', created.id, '--yes', ...on])).toEqual({ id: created.id, deleted: true });
    expect(JSON.parse((await runCli(['app', 'show', '--app', created.id, '--json', ...on])).stdout).error).toBe('UnknownApp');
  });

  it('user list prints people as users.getInfo does, by team; channel list prints a team’s channels as channels.list does', async () => {
    const { users } = await runCliJson(['user', 'list', '--team', teamId, ...on]);
    expect(users).toContainEqual({ id: developerId, teamId, email: 'dev@kestrel.test', firstName: 'Dana', lastName: 'Dev', role: 'user', timezone: '+00:00', timeZone: 'UTC' });
    expect(users.every((user: { teamId: string }) => user.teamId === teamId)).toBe(true);

    const opened = store.open();
    try {
      const developer = await opened.db.selectFrom('users').selectAll().where('id', '=', developerId).executeTakeFirstOrThrow();
      await createChannel(storeContext(opened.db), { user: developer, appId: null }, { name: 'release-train', purpose: 'ship it', type: 'public', members: [] });
    } finally {
      await opened.close();
    }
    const { channels } = await runCliJson(['channel', 'list', '--team', teamId, ...on]);
    expect(channels).toEqual([{ id: expect.stringMatching(/^g:/), name: 'release-train', purpose: 'ship it', type: 'public', memberCount: 1 }]);
    const table = await runCli(['channel', 'list', '--team', teamId, ...on]);
    expect(table.stdout).toMatch(/release-train\s+public\s+1\s+ship it/);
    const noTeam = await runCli(['channel', 'list', '--team', 't:nosuchteam00000', '--json', ...on]);
    expect(JSON.parse(noTeam.stdout).error).toBe('UnknownTeam');
    const badLimit = await runCli(['user', 'list', '--limit', '0', '--json', ...on]);
    expect(JSON.parse(badLimit.stdout).error).toBe('InvalidUsage');
  });
});
