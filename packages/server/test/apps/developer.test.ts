import { verifyEventToken } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { expectError, http, signedInPerson, startAppListener, tokenOutcome, type AppListener } from './harness.js';

const listeners: AppListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

forEachDialect('developer API: apps', (t) => {
  async function developer(role: 'user' | 'admin' = 'user') {
    const team = await t().f.team();
    return { team, dev: await signedInPerson(t(), team.id, role) };
  }

  it('creates, lists, reads, updates and deletes an app; the secret goes to its developer and no hash to anyone', async () => {
    const { team, dev } = await developer();
    const created = await dev.request('POST', '/api/developer/apps', {
      name: '  Weather  ',
      description: 'Forecasts',
      listenerUrl: 'https://weather.example/events',
      integrations: { slashCommands: [{ name: 'weather', action: { type: 'sendToApp' } }] },
    });
    expect(created.status).toBe(201);
    const app = created.body.app;
    expect(app).toMatchObject({
      id: expect.stringMatching(/^a:/),
      teamId: team.id,
      developerId: dev.user.id,
      name: 'Weather',
      description: 'Forecasts',
      icon: null,
      listenerUrl: 'https://weather.example/events',
      configurationUrl: null,
      // The alias is stored as the action type it stands for.
      integrations: { slashCommands: [{ name: 'weather', action: { type: 'sendEvent' } }], previewDomains: [] },
      botUserId: null,
      disabledByTeam: false,
      secret: expect.stringMatching(/^as_.{40,}/),
    });

    const listed = await dev.request('GET', '/api/developer/apps');
    expect(listed.body.apps.map((a: { id: string }) => a.id)).toEqual([app.id]);
    expect((await dev.request('GET', `/api/developer/apps/${app.id}`)).body.app).toEqual(app);

    const updated = await dev.request('PATCH', `/api/developer/apps/${app.id}`, { description: 'Rain or shine', icon: 'https://weather.example/icon.png', listenerUrl: null });
    expect(updated.status).toBe(200);
    expect(updated.body.app).toMatchObject({ name: 'Weather', description: 'Rain or shine', icon: 'https://weather.example/icon.png', listenerUrl: null, secret: app.secret });

    const bot = await dev.request('POST', `/api/developer/apps/${app.id}/bot`);
    expect(bot.body).toEqual({ botUserId: expect.stringMatching(/^u:/), botToken: expect.stringMatching(/^ab_/) });
    for (const body of [created.body, listed.body, updated.body, bot.body]) expect(JSON.stringify(body)).not.toMatch(/hash/i);

    expect((await dev.request('DELETE', `/api/developer/apps/${app.id}`)).body).toEqual({ deleted: true });
    expectError(await dev.request('GET', `/api/developer/apps/${app.id}`), 404, 'UnknownApp');
    expect((await dev.request('GET', '/api/developer/apps')).body.apps).toEqual([]);
  });

  it('refuses bad fields, naming each', async () => {
    const { dev } = await developer();
    expectError(await dev.request('POST', '/api/developer/apps', { description: 'no name' }), 400, 'MissingParameter', 'name');
    expectError(await dev.request('POST', '/api/developer/apps', { name: 'A', listenerUrl: 'ftp://example.com/x' }), 400, 'InvalidParameter', 'listenerUrl');
    expectError(await dev.request('POST', '/api/developer/apps', { name: 'A', configurationUrl: 'example.com' }), 400, 'InvalidParameter', 'configurationUrl');
    expectError(await dev.request('POST', '/api/developer/apps', { name: 'A', listenerURL: 'https://example.com' }), 400, 'InvalidParameter', 'listenerURL');
    expectError(await dev.request('POST', '/api/developer/apps', { name: 'x'.repeat(81) }), 400, 'InvalidParameter', 'name');
    const nested = await dev.request('POST', '/api/developer/apps', { name: 'A', integrations: { slashCommands: [{ name: '/slash', action: { type: 'sendEvent' } }] } });
    expectError(nested, 400, 'InvalidParameter', 'integrations.slashCommands[0].name');
    expect(nested.body.description).toMatch(/^integrations\.slashCommands\[0\]\.name must be/);
    expectError(await dev.request('POST', '/api/developer/apps', [1]), 400, 'InvalidRequestData');
    // Nothing was made by any of them.
    expect((await dev.request('GET', '/api/developer/apps')).body.apps).toEqual([]);
  });

  it('sets the whole integrations object, refusing a wrong field by its exact path and keeping the old one', async () => {
    const { dev } = await developer();
    const { app } = (await dev.request('POST', '/api/developer/apps', { name: 'Tools' })).body;
    const path = `/api/developer/apps/${app.id}/integrations`;
    const integrations = {
      slashCommands: [
        { name: 'deploy', description: 'Ship it', action: { type: 'openWidget', url: 'https://tools.example/deploy', desktopType: 'sidebar' } },
        { name: 'ping_2', action: { type: 'sendToAppService' } },
      ],
      launcherButton: { name: 'Tools', icon: 'https://tools.example/i.png', action: { type: 'openBrowser', url: 'https://tools.example', sendContext: true } },
      chatTabButton: { name: 'Tab', action: { type: 'sendEvent' } },
      attachmentPickerButton: { name: 'Attach', action: { type: 'openWidget', url: 'https://tools.example/pick' } },
      messageAction: { name: 'Save', action: { type: 'sendEvent' } },
      appHome: { url: 'https://tools.example/home' },
      previewDomains: ['tools.example', '*.tools.example'],
    };
    const set = await dev.request('PUT', path, integrations);
    expect(set.status).toBe(200);
    const stored = { ...integrations, slashCommands: [integrations.slashCommands[0], { name: 'ping_2', action: { type: 'sendEvent' } }] };
    expect(set.body.integrations).toEqual(stored);

    const refusals: Array<[unknown, string]> = [
      [{ slashCommands: [{ name: 'ok', action: { type: 'openWidget' } }] }, 'slashCommands[0].action.url'],
      [{ slashCommands: [{ name: 'ok', action: { type: 'teleport' } }] }, 'slashCommands[0].action.type'],
      [{ slashCommands: [{ name: 'a', action: { type: 'sendEvent' } }, { name: 'a', action: { type: 'sendEvent' } }] }, 'slashCommands[1].name'],
      [{ slashCommands: [{ name: '_x', action: { type: 'sendEvent' } }] }, 'slashCommands[0].name'],
      [{ slashCommands: [{ name: 'x'.repeat(33), action: { type: 'sendEvent' } }] }, 'slashCommands[0].name'],
      [{ slashCommands: [{ name: 'x' }] }, 'slashCommands[0].action'],
      [{ launcherButton: { action: { type: 'sendEvent' } } }, 'launcherButton.name'],
      [{ chatTabButton: { name: 'T', icon: 'javascript:alert(1)', action: { type: 'sendEvent' } } }, 'chatTabButton.icon'],
      [{ messageAction: { name: 'M', action: { type: 'openBrowser', url: 'https://x.example', colour: 'red' } } }, 'messageAction.action'],
      [{ appHome: { url: 'ftp://tools.example/home' } }, 'appHome.url'],
      [{ previewDomains: ['Example.com'] }, 'previewDomains[0]'],
      [{ previewDomains: ['ok.example', 'https://bad.example'] }, 'previewDomains[1]'],
      [{ previewDomains: ['*.com'] }, 'previewDomains[0]'],
      [{ previewDomains: ['a.example', 'a.example'] }, 'previewDomains[1]'],
      [{ slashCommand: [] }, 'integrations'],
    ];
    for (const [body, parameter] of refusals) expectError(await dev.request('PUT', path, body), 400, 'InvalidParameter', parameter);
    expectError(await dev.request('PUT', path), 400, 'InvalidRequestData');
    expect((await dev.request('GET', `/api/developer/apps/${app.id}`)).body.app.integrations).toEqual(stored);
  });

  it('shows and changes an app only for its developer and the team’s admins; credentials only for the developer', async () => {
    const { team, dev } = await developer();
    const { app } = (await dev.request('POST', '/api/developer/apps', { name: 'Private' })).body;
    const teammate = await signedInPerson(t(), team.id);
    const admin = await signedInPerson(t(), team.id, 'admin');
    const otherAdmin = await signedInPerson(t(), (await t().f.team()).id, 'admin');
    for (const outsider of [teammate, otherAdmin]) {
      expectError(await outsider.request('GET', `/api/developer/apps/${app.id}`), 404, 'UnknownApp');
      expectError(await outsider.request('PATCH', `/api/developer/apps/${app.id}`, { name: 'Mine' }), 404, 'UnknownApp');
      expectError(await outsider.request('DELETE', `/api/developer/apps/${app.id}`), 404, 'UnknownApp');
      expectError(await outsider.request('GET', `/api/developer/apps/${app.id}/events`), 404, 'UnknownApp');
      expect((await outsider.request('GET', '/api/developer/apps')).body.apps).toEqual([]);
    }
    expectError(await teammate.request('GET', '/api/developer/apps/a:doesnotexist'), 404, 'UnknownApp');

    const seenByAdmin = await admin.request('PATCH', `/api/developer/apps/${app.id}`, { name: 'Renamed by admin' });
    expect(seenByAdmin.body.app).toMatchObject({ id: app.id, name: 'Renamed by admin' });
    expect(seenByAdmin.body.app).not.toHaveProperty('secret');
    expectError(await admin.request('POST', `/api/developer/apps/${app.id}/secret`), 403, 'PermissionDenied');
    expectError(await admin.request('POST', `/api/developer/apps/${app.id}/bot`), 403, 'PermissionDenied');

    expectError(await http(t().url, 'GET', '/api/developer/apps'), 401, 'NotSignedIn');
    expectError(await http(t().url, 'POST', '/api/developer/apps', { name: 'x' }, { authorization: 'Bearer nope' }), 401, 'NotSignedIn');
  });

  it('rotates the secret: events are signed with the new one, and with the old one in a second header during the grace period', async () => {
    const { team, dev } = await developer();
    const listener = await startAppListener();
    listeners.push(listener);
    const { app } = (await dev.request('POST', '/api/developer/apps', { name: 'Signed', listenerUrl: listener.url })).body;
    listener.useCredentials(app.id, app.secret);
    const alice = await signedInPerson(t(), team.id);
    expect((await alice.request('POST', '/v1/apps.install', { appId: app.id })).body).toEqual({ installed: true });

    const rotated = await dev.request('POST', `/api/developer/apps/${app.id}/secret`);
    expect(rotated.body).toEqual({ secret: expect.stringMatching(/^as_/), previousSecretUntil: expect.any(Number) });
    expect(rotated.body.secret).not.toBe(app.secret);
    expect((await dev.request('GET', `/api/developer/apps/${app.id}`)).body.app.secret).toBe(rotated.body.secret);

    // The listener still on the old secret accepts the event by the second token (the grace period's end is in secretGrace.test.ts).
    const bob = await signedInPerson(t(), team.id);
    expect((await bob.request('POST', '/v1/apps.install', { appId: app.id })).body).toEqual({ installed: true });
    const { headers } = listener.requests.at(-1)!;
    const token = String(headers['x-service-event-token']);
    await expect(verifyEventToken(token, { appId: app.id, appSecret: app.secret })).rejects.toMatchObject({ reason: 'signature' });
    await expect(verifyEventToken(token, { appId: app.id, appSecret: rotated.body.secret })).resolves.toMatchObject({ userId: bob.user.id });
    await expect(verifyEventToken(String(headers['x-service-event-token-previous']), { appId: app.id, appSecret: app.secret })).resolves.toMatchObject({ userId: bob.user.id });

    listener.useCredentials(app.id, rotated.body.secret);
    const carol = await signedInPerson(t(), team.id);
    expect((await carol.request('POST', '/v1/apps.install', { appId: app.id })).body).toEqual({ installed: true });
    const [, second, third] = await listener.waitForVerified(3);
    expect(second.event).toMatchObject({ name: 'app.install', userId: bob.user.id });
    expect(third.event).toMatchObject({ name: 'app.install', userId: carol.user.id });
  });

  it('enables the bot, regenerates its token (the old one stops working), and delete revokes every token', async () => {
    const { team, dev } = await developer();
    const listener = await startAppListener();
    listeners.push(listener);
    const { app } = (await dev.request('POST', '/api/developer/apps', { name: 'Botty', listenerUrl: listener.url })).body;
    listener.useCredentials(app.id, app.secret);
    expectError(await dev.request('POST', `/api/developer/apps/${app.id}/bot/token`), 409, 'BotNotEnabled');
    const first = (await dev.request('POST', `/api/developer/apps/${app.id}/bot`)).body;
    const bot = await t().call('users.getInfo', { query: { token: first.botToken } });
    expect(bot.body).toMatchObject({ id: first.botUserId, firstName: 'Botty', lastName: 'Bot', isBot: true });
    const second = (await dev.request('POST', `/api/developer/apps/${app.id}/bot/token`)).body;
    expect(second.botUserId).toBe(first.botUserId);
    expect(await tokenOutcome(t(), first.botToken)).toBe('InvalidToken');
    expect(await tokenOutcome(t(), second.botToken)).toBe('ok');

    const alice = await signedInPerson(t(), team.id);
    await alice.request('POST', '/v1/apps.install', { appId: app.id });
    const [install] = await listener.waitForVerified(1);
    const userToken = (install.event as { token: string }).token;
    expect(await tokenOutcome(t(), userToken)).toBe('ok');

    await dev.request('DELETE', `/api/developer/apps/${app.id}`);
    expect(await tokenOutcome(t(), userToken)).toBe('InvalidToken');
    expect(await tokenOutcome(t(), second.botToken)).toBe('InvalidToken');
    const db = t().testStore.store.db;
    expect(await db.selectFrom('installs').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
    expect(await db.selectFrom('events').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
    const botUser = await db.selectFrom('users').selectAll().where('id', '=', first.botUserId).executeTakeFirstOrThrow();
    expect(botUser.deactivated_at).not.toBeNull();
    expect((await alice.request('POST', '/v1/apps.listDirectory', {})).body.apps).toEqual([]);
  });
});

