import { verifyEventToken } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { expectError, http, signedInPerson, startAppListener, tokenOutcome, type AppListener } from './harness.js';

const listeners: AppListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

forEachDialect('developer methods: apps', (t) => {
  async function developer(role: 'user' | 'admin' = 'user') {
    const team = await t().f.team();
    return { team, dev: await signedInPerson(t(), team.id, role) };
  }

  it('creates, lists, reads, updates and deletes an app; the secret goes to its developer and no hash to anyone', async () => {
    const { team, dev } = await developer();
    const created = await dev.call('apps.create', {
      name: '  Weather  ',
      description: 'Forecasts',
      listenerUrl: 'https://weather.example/events',
      integrations: { slashCommands: [{ name: 'weather', action: { type: 'sendToApp' } }] },
    });
    expect(created.status).toBe(200);
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

    const listed = await dev.call('apps.listDeveloped');
    expect(listed.body.apps.map((a: { id: string }) => a.id)).toEqual([app.id]);
    expect((await dev.call('apps.getInfo', { appId: app.id })).body.app).toEqual(app);

    const updated = await dev.call('apps.update', { appId: app.id, description: 'Rain or shine', icon: 'https://weather.example/icon.png', listenerUrl: null });
    expect(updated.status).toBe(200);
    expect(updated.body.app).toMatchObject({ name: 'Weather', description: 'Rain or shine', icon: 'https://weather.example/icon.png', listenerUrl: null, secret: app.secret });

    const bot = await dev.call('apps.enableBot', { appId: app.id });
    expect(bot.body).toEqual({ botUserId: expect.stringMatching(/^u:/), botToken: expect.stringMatching(/^ab_/) });
    for (const body of [created.body, listed.body, updated.body, bot.body]) expect(JSON.stringify(body)).not.toMatch(/hash[^"]*":/i); // no field of a hash (a random secret may spell "hash")

    expect((await dev.call('apps.delete', { appId: app.id })).body).toEqual({ deleted: true });
    expectError(await dev.call('apps.getInfo', { appId: app.id }), 404, 'UnknownApp');
    expect((await dev.call('apps.listDeveloped')).body.apps).toEqual([]);
  });

  it('refuses bad fields, naming each', async () => {
    const { dev } = await developer();
    expectError(await dev.call('apps.create', { description: 'no name' }), 400, 'MissingParameter', 'name');
    expectError(await dev.call('apps.create', { name: 'A', listenerUrl: 'ftp://example.com/x' }), 400, 'InvalidParameter', 'listenerUrl');
    expectError(await dev.call('apps.create', { name: 'A', configurationUrl: 'example.com' }), 400, 'InvalidParameter', 'configurationUrl');
    expectError(await dev.call('apps.create', { name: 'A', listenerURL: 'https://example.com' }), 400, 'InvalidParameter', 'listenerURL');
    expectError(await dev.call('apps.create', { name: 'x'.repeat(81) }), 400, 'InvalidParameter', 'name');
    const nested = await dev.call('apps.create', { name: 'A', integrations: { slashCommands: [{ name: '/slash', action: { type: 'sendEvent' } }] } });
    expectError(nested, 400, 'InvalidParameter', 'integrations.slashCommands[0].name');
    expect(nested.body.description).toMatch(/^integrations\.slashCommands\[0\]\.name must be/);
    expectError(await dev.request('POST', '/v1/apps.create', [1]), 400, 'InvalidRequestData');
    // Nothing was made by any of them.
    expect((await dev.call('apps.listDeveloped')).body.apps).toEqual([]);
  });

  it('sets the whole integrations object, refusing a wrong field by its exact path and keeping the old one', async () => {
    const { dev } = await developer();
    const { app } = (await dev.call('apps.create', { name: 'Tools' })).body;
    const setIntegrations = (integrations?: unknown) => dev.call('apps.setIntegrations', { appId: app.id, integrations });
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
    const set = await setIntegrations(integrations);
    expect(set.status).toBe(200);
    const stored = { ...integrations, slashCommands: [integrations.slashCommands[0], { name: 'ping_2', action: { type: 'sendEvent' } }] };
    expect(set.body.integrations).toEqual(stored);

    const refusals: Array<[unknown, string]> = [
      [{ slashCommands: [{ name: 'ok', action: { type: 'openWidget' } }] }, 'integrations.slashCommands[0].action.url'],
      [{ slashCommands: [{ name: 'ok', action: { type: 'teleport' } }] }, 'integrations.slashCommands[0].action.type'],
      [{ slashCommands: [{ name: 'a', action: { type: 'sendEvent' } }, { name: 'a', action: { type: 'sendEvent' } }] }, 'integrations.slashCommands[1].name'],
      [{ slashCommands: [{ name: '_x', action: { type: 'sendEvent' } }] }, 'integrations.slashCommands[0].name'],
      [{ slashCommands: [{ name: 'x'.repeat(33), action: { type: 'sendEvent' } }] }, 'integrations.slashCommands[0].name'],
      [{ slashCommands: [{ name: 'x' }] }, 'integrations.slashCommands[0].action'],
      [{ launcherButton: { action: { type: 'sendEvent' } } }, 'integrations.launcherButton.name'],
      [{ chatTabButton: { name: 'T', icon: 'javascript:alert(1)', action: { type: 'sendEvent' } } }, 'integrations.chatTabButton.icon'],
      [{ messageAction: { name: 'M', action: { type: 'openBrowser', url: 'https://x.example', colour: 'red' } } }, 'integrations.messageAction.action'],
      [{ appHome: { url: 'ftp://tools.example/home' } }, 'integrations.appHome.url'],
      [{ previewDomains: ['Example.com'] }, 'integrations.previewDomains[0]'],
      [{ previewDomains: ['ok.example', 'https://bad.example'] }, 'integrations.previewDomains[1]'],
      [{ previewDomains: ['*.com'] }, 'integrations.previewDomains[0]'],
      [{ previewDomains: ['a.example', 'a.example'] }, 'integrations.previewDomains[1]'],
      [{ slashCommand: [] }, 'integrations'],
    ];
    for (const [body, parameter] of refusals) expectError(await setIntegrations(body), 400, 'InvalidParameter', parameter);
    expectError(await setIntegrations(), 400, 'MissingParameter', 'integrations');
    expectError(await setIntegrations([]), 400, 'InvalidParameter', 'integrations');
    expect((await dev.call('apps.getInfo', { appId: app.id })).body.app.integrations).toEqual(stored);
  });

  it('shows and changes an app only for its developer and the team’s admins; credentials only for the developer', async () => {
    const { team, dev } = await developer();
    const { app } = (await dev.call('apps.create', { name: 'Private' })).body;
    const teammate = await signedInPerson(t(), team.id);
    const admin = await signedInPerson(t(), team.id, 'admin');
    const otherAdmin = await signedInPerson(t(), (await t().f.team()).id, 'admin');
    for (const outsider of [teammate, otherAdmin]) {
      expectError(await outsider.call('apps.getInfo', { appId: app.id }), 404, 'UnknownApp');
      expectError(await outsider.call('apps.update', { appId: app.id, name: 'Mine' }), 404, 'UnknownApp');
      expectError(await outsider.call('apps.delete', { appId: app.id }), 404, 'UnknownApp');
      expectError(await outsider.call('deliveries.list', { appId: app.id }), 404, 'UnknownApp');
      expect((await outsider.call('apps.listDeveloped')).body.apps).toEqual([]);
    }
    expectError(await teammate.call('apps.getInfo', { appId: 'a:doesnotexist' }), 404, 'UnknownApp');

    const seenByAdmin = await admin.call('apps.update', { appId: app.id, name: 'Renamed by admin' });
    expect(seenByAdmin.body.app).toMatchObject({ id: app.id, name: 'Renamed by admin' });
    expect(seenByAdmin.body.app).not.toHaveProperty('secret');
    expectError(await admin.call('apps.rotateSecret', { appId: app.id }), 403, 'PermissionDenied');
    expectError(await admin.call('apps.enableBot', { appId: app.id }), 403, 'PermissionDenied');

    expectError(await http(t().url, 'POST', '/v1/apps.listDeveloped'), 401, 'NotSignedIn');
    expectError(await http(t().url, 'POST', '/v1/apps.create', { name: 'x' }, { authorization: 'Bearer nope' }), 401, 'NotSignedIn');
  });

  it('rotates the secret: events are signed with the new one, and with the old one in a second header during the grace period', async () => {
    const { team, dev } = await developer();
    const listener = await startAppListener();
    listeners.push(listener);
    const { app } = (await dev.call('apps.create', { name: 'Signed', listenerUrl: listener.url })).body;
    listener.useCredentials(app.id, app.secret);
    const alice = await signedInPerson(t(), team.id);
    expect((await alice.request('POST', '/v1/apps.install', { appId: app.id })).body).toEqual({ installed: true });

    const rotated = await dev.call('apps.rotateSecret', { appId: app.id });
    expect(rotated.body).toEqual({ secret: expect.stringMatching(/^as_/), previousSecretUntil: expect.any(Number) });
    expect(rotated.body.secret).not.toBe(app.secret);
    expect((await dev.call('apps.getInfo', { appId: app.id })).body.app.secret).toBe(rotated.body.secret);

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
    const { app } = (await dev.call('apps.create', { name: 'Botty', listenerUrl: listener.url })).body;
    listener.useCredentials(app.id, app.secret);
    expectError(await dev.call('apps.regenerateBotToken', { appId: app.id }), 409, 'BotNotEnabled');
    const first = (await dev.call('apps.enableBot', { appId: app.id })).body;
    const bot = await t().call('users.getInfo', { query: { token: first.botToken } });
    expect(bot.body).toMatchObject({ id: first.botUserId, firstName: 'Botty', lastName: 'Bot', isBot: true });
    const second = (await dev.call('apps.regenerateBotToken', { appId: app.id })).body;
    expect(second.botUserId).toBe(first.botUserId);
    expect(await tokenOutcome(t(), first.botToken)).toBe('InvalidToken');
    expect(await tokenOutcome(t(), second.botToken)).toBe('ok');

    const alice = await signedInPerson(t(), team.id);
    await alice.request('POST', '/v1/apps.install', { appId: app.id });
    const [install] = await listener.waitForVerified(1);
    const userToken = (install.event as { token: string }).token;
    expect(await tokenOutcome(t(), userToken)).toBe('ok');

    await dev.call('apps.delete', { appId: app.id });
    expect(await tokenOutcome(t(), userToken)).toBe('InvalidToken');
    expect(await tokenOutcome(t(), second.botToken)).toBe('InvalidToken');
    const db = t().testStore.store.db;
    expect(await db.selectFrom('installs').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
    expect(await db.selectFrom('events').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
    const botUser = await db.selectFrom('users').selectAll().where('id', '=', first.botUserId).executeTakeFirstOrThrow();
    expect(botUser.deactivated_at).not.toBeNull();
    expect((await alice.request('POST', '/v1/apps.listDirectory', {})).body.apps).toEqual([]);
  });
  it('lets an app act on itself with its secret as Bearer and its id as appId, never on another app, and only with its current secret', async () => {
    const { dev } = await developer();
    const { app } = (await dev.call('apps.create', { name: 'Self-managed' })).body;
    const { app: other } = (await dev.call('apps.create', { name: 'Other' })).body;
    const asApp = (method: string, params: Record<string, unknown>, secret: string = app.secret) =>
      http(t().url, 'POST', `/v1/${method}`, params, { authorization: `Bearer ${secret}` });

    expect((await asApp('apps.getInfo', { appId: app.id })).body.app).toMatchObject({ id: app.id, secret: app.secret });
    const changed = await asApp('apps.update', { appId: app.id, listenerUrl: 'https://self.example/events', name: 'Renamed by itself' });
    expect(changed.body.app).toMatchObject({ listenerUrl: 'https://self.example/events', name: 'Renamed by itself' });
    expect((await asApp('apps.setIntegrations', { appId: app.id, integrations: { previewDomains: ['self.example'] } })).body.integrations.previewDomains).toEqual(['self.example']);
    expect((await asApp('apps.enableBot', { appId: app.id })).body).toEqual({ botUserId: expect.stringMatching(/^u:/), botToken: expect.stringMatching(/^ab_/) });
    expect((await asApp('deliveries.list', { appId: app.id })).body).toEqual({ events: [] });
    // A test event from the app's developer: the app has no listener that answers, so it says why.
    const test = await asApp('deliveries.sendTestEvent', { appId: app.id, name: 'app.uninstall' });
    expect(test.body).toMatchObject({ event: { name: 'app.uninstall', userId: dev.user.id }, via: 'listener' });

    // Another app's id with this secret, an id that does not exist, a wrong secret: the same refusal.
    expectError(await asApp('apps.getInfo', { appId: other.id }), 403, 'InvalidToken');
    expectError(await asApp('apps.getInfo', { appId: 'a:doesnotexist' }), 403, 'InvalidToken');
    expectError(await asApp('apps.getInfo', { appId: app.id }, other.secret), 403, 'InvalidToken');
    expectError(await asApp('apps.getInfo', {}), 400, 'MissingParameter', 'appId');
    expectError(await asApp('apps.getInfo', { appId: 7 }), 400, 'InvalidParameter', 'appId');
    // What only a person does, and the methods of tokens, take no secret.
    for (const method of ['apps.create', 'apps.listDeveloped', 'apps.delete']) expectError(await asApp(method, { appId: app.id, name: 'x' }), 401, 'NotSignedIn');
    expectError(await asApp('users.getInfo', {}), 403, 'InvalidToken');
    // The secret is a credential of the Authorization header only, never a parameter.
    expectError(await http(t().url, 'POST', '/v1/apps.getInfo', { appId: app.id, token: app.secret }), 401, 'NotSignedIn');

    const rotated = await asApp('apps.rotateSecret', { appId: app.id });
    expect(rotated.body.secret).toMatch(/^as_/);
    // The previous secret still signs events for a while, but calls nothing.
    expectError(await asApp('apps.getInfo', { appId: app.id }), 403, 'InvalidToken');
    expect((await asApp('apps.getInfo', { appId: app.id }, rotated.body.secret)).body.app.secret).toBe(rotated.body.secret);
  });
});

