import { verifyWidgetRequest } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { parseSlashCommand } from '../../src/core/interactions/slashCommand.js';
import { forEachDialect } from '../helpers/server.js';
import { clientCast, closeSdkApps, expectError } from './harness.js';

afterAll(closeSdkApps);

const integrations = {
  slashCommands: [
    { name: 'weather', description: 'The forecast', action: { type: 'sendEvent' } },
    { name: 'poll', action: { type: 'openWidget', url: 'https://widgets.example.test/poll?v=2', desktopType: 'sidebar' } },
  ],
};

it('reads /name text as docs/reference/integrations.md shapes it', () => {
  expect(parseSlashCommand('/weather Paris tomorrow')).toEqual({ command: 'weather', text: 'Paris tomorrow' });
  expect(parseSlashCommand('/my_cmd-2   spaced\nlines')).toEqual({ command: 'my_cmd-2', text: 'spaced\nlines' });
  expect(parseSlashCommand('/9lives')).toEqual({ command: '9lives', text: '' });
  for (const text of ['/_hidden x', '/-x y', '/usr/bin ls', 'weather /now', '/ weather', 'weather', '//x y', '/wea.ther x']) {
    expect(parseSlashCommand(text), text).toBeUndefined();
  }
});

forEachDialect('slash commands from the composer (chat.sendFromComposer)', (t) => {
  it('sends client.slashCommand to the listener instead of a message, and answers its toast, cut to 100 characters', async () => {
    const { alice, channel, sdkApp, app } = await clientCast(t(), integrations);
    sdkApp.answer = () => ({ text: `${'☀'.repeat(99)}🌧 and more` });
    const result = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather Paris tomorrow' });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ slashCommand: { appId: app.id, command: 'weather' }, answer: { kind: 'toast', text: `${'☀'.repeat(99)}🌧` } });
    const [{ event, claims }] = await sdkApp.waitFor(1);
    expect(event).toEqual({
      name: 'client.slashCommand',
      userId: alice.user.id,
      userName: 'Alice Archer',
      chat: channel.id,
      chatName: 'general',
      command: 'weather',
      text: 'Paris tomorrow',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });
    expect(claims).toMatchObject({ appId: app.id, userId: alice.user.id });
    expect((await alice.call('chat.fetchMessages', { chat: channel.id })).body).toEqual([]);
  });

  it('runs /name alone with empty text, and answers none when the app says nothing', async () => {
    const { alice, bob, sdkApp } = await clientCast(t(), integrations);
    const result = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: '/weather' });
    expect(result.body.answer).toEqual({ kind: 'none' });
    const [{ event }] = await sdkApp.waitFor(1);
    expect(event).toMatchObject({ command: 'weather', text: '', chat: bob.user.id, chatName: 'Bob Baker' });
  });

  it('sends a / that reaches no installed command as an ordinary message', async () => {
    const { alice, bob, channel, sdkApp } = await clientCast(t(), integrations);
    const texts = ['/unknown hello', '/weather/now', '/weather with <b>markup</b>'];
    for (const text of texts.slice(0, 2)) expect((await alice.call('chat.sendFromComposer', { to: channel.id, text })).body.message).toMatchObject({ text });
    // With ServiceML it is a message too: a command carries text only.
    const marked = await alice.call('chat.sendFromComposer', { to: channel.id, text: texts[2], serviceml: '<serviceml><b>markup</b></serviceml>' });
    expect(marked.body.message).toMatchObject({ text: texts[2] });
    // Bob has not installed the app, so its commands are not his.
    expect((await bob.call('chat.sendFromComposer', { to: channel.id, text: '/weather Paris' })).body.message).toMatchObject({ text: '/weather Paris' });
    expect((await bob.call('chat.fetchMessages', { chat: channel.id })).body).toHaveLength(4);
    expect(sdkApp.received).toEqual([]);
  });

  it('opens the command’s widget with the event in a URL the SDK verifies, typed by the client', async () => {
    const { alice, bob, sdkApp, app } = await clientCast(t(), integrations);
    const desktop = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: '/poll Lunch?' });
    expect(desktop.body.answer).toEqual({ kind: 'openWidget', url: expect.any(String), desktopType: 'sidebar', mobileType: 'modal' });
    const url = new URL(desktop.body.answer.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://widgets.example.test/poll');
    expect(url.searchParams.get('v')).toBe('2');
    const verified = await verifyWidgetRequest(url, { appId: app.id, appSecret: app.secret });
    expect(verified).toMatchObject({ client: 'desktop', widgetType: 'sidebar', claims: { appId: app.id, userId: alice.user.id } });
    expect(verified.event).toEqual({
      name: 'client.slashCommand',
      userId: alice.user.id,
      userName: 'Alice Archer',
      chat: bob.user.id,
      chatName: 'Bob Baker',
      command: 'poll',
      text: 'Lunch?',
    });
    const phone = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: '/poll Dinner?', client: 'ios' });
    expect(await verifyWidgetRequest(phone.body.answer.url, { appId: app.id, appSecret: app.secret })).toMatchObject({ client: 'ios', widgetType: 'modal' });
    expect(sdkApp.received).toEqual([]);

    // Each open is in the app's delivery log, under its token's jti, with the URL but never its token.
    const { events } = (await alice.call('deliveries.list', { appId: app.id })).body;
    expect(events).toEqual([
      expect.objectContaining({ name: 'client.slashCommand', status: 'delivered', synchronous: true, openedUrl: 'https://widgets.example.test/poll', event: expect.objectContaining({ text: 'Dinner?' }) }),
      expect.objectContaining({ id: verified.claims.jti, openedUrl: 'https://widgets.example.test/poll', event: verified.event }),
    ]);
    expect(JSON.stringify(events)).not.toContain(url.searchParams.get('serviceEventToken')!);
    expect((await alice.call('deliveries.listAttempts', { appId: app.id, eventId: events[1].id })).body).toEqual({ attempts: [] });
  });

  it('answers AppUnreachable when the listener fails, and UnknownChat for a chat the person cannot read', async () => {
    const { alice, sdkApp } = await clientCast(t(), integrations);
    sdkApp.answer = () => {
      throw new Error('the app is broken');
    };
    expectError(await alice.call('chat.sendFromComposer', { to: alice.user.id, text: '/weather Oslo' }), {
      status: 502,
      error: 'AppUnreachable',
      description: /client\.slashCommand.*HTTP 500/,
    });
    const elsewhere = (await clientCast(t())).channel;
    expectError(await alice.call('chat.sendFromComposer', { to: elsewhere.id, text: '/weather Oslo' }), { error: 'UnknownChat', parameter: 'to' });
    expectError(await alice.call('chat.sendFromComposer', { to: alice.user.id, text: '/weather Oslo', client: 'web' }), { error: 'InvalidParameter', parameter: 'client' });
  });
});
