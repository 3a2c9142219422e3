import { Attachment, eventNames, eventSchemas, InteractionAnswer, Message, type AnyEvent, type EventName } from '@aviary/protocol';
import { verifyWidgetRequest } from '@aviary/sdk';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { afterAll, expect, it } from 'vitest';
import { updateApp } from '../../src/core/commands/apps.js';
import { clientCast, closeSdkApps, type SignedIn } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

afterAll(closeSdkApps);

/**
 * Every event the server sends, captured from a real run (the SDK listener of a real app, and the URLs
 * the client API hands out), is exactly the shape its protocol schema describes; so are the client
 * API's interaction answers and the messages with attachments they act on.
 */

const previewHost = 'preview.example.test';
const integrations = {
  slashCommands: [{ name: 'ship', description: 'Ships it', action: { type: 'sendEvent' } }],
  launcherButton: { name: 'Open', action: { type: 'sendToApp' } },
  messageAction: { name: 'Summarise', action: { type: 'sendEvent' } },
  previewDomains: [previewHost],
};

const card = {
  id: 'card',
  title: 'Deploy #42',
  color: '#1A2B3C',
  forward: 'true',
  downloads: [{ src: ' https://example.test/log.txt ', size: '1024' }],
  buttons: [{ name: 'Approve', id: 'approve', icon: 'https://example.test/ok.png', action: { type: 'sendToAppService' } }],
};
const widgetCard = {
  id: 'chart',
  views: {
    widget: { src: 'https://widgets.example.test/chart', width: 400, height: 300 },
    serviceml: '<serviceml><action id="zoom" type="openWidget" url="https://widgets.example.test/zoom">Zoom</action></serviceml>',
  },
};
const choices = '<serviceml>Ship it? <action id="yes" type="sendEvent">Yes</action></serviceml>';

/** The schema's complaints about a value, for a failure message that says what is wrong. */
function problems(schema: TSchema, value: unknown): string[] {
  return [...Value.Errors(schema, value)].map((error) => `${error.path || '/'}: ${error.message}`);
}

function expectShape(schema: TSchema, value: unknown, what: string): void {
  expect(problems(schema, value), `${what}: ${JSON.stringify(value)}`).toEqual([]);
}

forEachDialect('every event the server sends has its protocol shape', (t) => {
  it('captures every event from a real run and checks each against its schema', async () => {
    const { alice, bob, bot, app, channel, sdkApp } = await clientCast(t(), integrations);
    // Aviary's own events too: the app subscribes to every event.
    await updateApp(storeContext(t().testStore.store.db), cliActor, { appId: app.id, eventSubscriptions: [...eventNames] });
    sdkApp.answer = (event) => (event.name === 'chat.generateUrlPreview' ? { title: 'A preview', url: event.url, color: '#AABBCC' } : undefined);
    const widgetEvents: AnyEvent[] = [];
    const answers: unknown[] = [];
    /** A method, called with the person's session. */
    const act = async (who: SignedIn, method: string, body: Record<string, unknown>) => {
      const result = await who.call(method, body);
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      return result.body;
    };
    const openedEvent = async (answer: { url: string }) => widgetEvents.push((await verifyWidgetRequest(answer.url, { appId: app.id, appSecret: app.secret })).event);

    // app.install, then app.uninstall through the outbox.
    await act(bob, 'apps.install', { appId: app.id });
    await act(bob, 'apps.uninstall', { appId: app.id });
    // chat.receiveMessage (a message to the bot) and chat.generateUrlPreview (a link of a preview domain).
    await act(alice, 'chat.sendFromComposer', { to: bot.botUserId, text: `look: https://${previewHost}/pr/7` });
    // client.slashCommand, client.pressButton (the app's button, and an attachment's), client.messageAction.
    answers.push((await act(alice, 'chat.sendFromComposer', { to: channel.id, text: '/ship to production' })).answer);
    answers.push(await act(alice, 'interactions.pressButton', { appId: app.id, button: 'appLauncherButton', chat: channel.id }));
    const bots = t().client(bot.botToken).chat;
    const { uid: cardUid } = await bots.sendMessage({ to: alice.user.id, text: 'deploy', attachments: [card] });
    answers.push(await act(alice, 'interactions.pressButton', { messageUid: cardUid, attachmentId: 'card', buttonId: 'approve' }));
    const { uid: noteUid } = await bots.sendMessage({ to: alice.user.id, text: 'a note', serviceml: choices });
    answers.push(await act(alice, 'interactions.runMessageAction', { appId: app.id, chat: bot.botUserId, messageUids: [noteUid, cardUid] }));
    // client.servicemlAction to the listener; client.openAttachmentWidget and client.widgetAction in URLs.
    answers.push(await act(alice, 'interactions.runServicemlAction', { messageUid: noteUid, actionId: 'yes' }));
    const { uid: chartUid } = await bots.sendMessage({ to: alice.user.id, text: 'chart', attachments: [widgetCard] });
    const zoom = await act(alice, 'interactions.runServicemlAction', { messageUid: chartUid, attachmentId: 'chart', actionId: 'zoom' });
    const inline = await act(alice, 'interactions.openAttachmentWidget', { messageUid: chartUid, attachmentId: 'chart' });
    const next = await act(alice, 'interactions.runWidgetAction', { appId: app.id, kind: 'openWidget', url: 'https://widgets.example.test/next', messageUid: chartUid, attachmentId: 'chart' });
    answers.push(zoom, inline, next);
    for (const opened of [zoom, inline, next]) await openedEvent(opened);
    // chat.reactionAdded, chat.reactionRemoved, chat.messageUpdated, chat.messageDeleted (and one more chat.receiveMessage).
    const { uid: changedUid } = await act(alice, 'chat.sendMessage', { to: bot.botUserId, text: 'to be changed' });
    await act(alice, 'reactions.add', { messageUid: changedUid, emoji: '👍' });
    await act(alice, 'reactions.remove', { messageUid: changedUid, emoji: '👍' });
    await act(alice, 'chat.updateMessage', { messageUid: changedUid, text: 'changed' });
    await act(alice, 'chat.deleteMessage', { messageUid: changedUid });
    // channel.created, channel.memberJoined, channel.memberLeft: Alice, who installed the app, is in the channel.
    const { id: roomId } = await act(alice, 'channels.create', { name: 'shapes', members: [] });
    await act(alice, 'channels.addMembers', { channelId: roomId, members: [bob.user.id] });
    await act(alice, 'channels.removeMembers', { channelId: roomId, members: [bob.user.id] });

    const listenerEvents = (await sdkApp.waitFor(17)).map((received) => received.event);
    await t().server.ctx.background.settled();
    const events = [...listenerEvents, ...widgetEvents];
    expect(new Set(events.map((event) => event.name))).toEqual(new Set<EventName>(eventNames));
    for (const event of events) expectShape(eventSchemas[event.name], event, event.name);
    expect(events.flatMap((event) => (event.name === 'client.pressButton' ? [event.button] : [])).sort()).toEqual(['appLauncherButton', 'attachmentButton']);
    for (const answer of answers) expectShape(InteractionAnswer, answer, 'interaction answer');

    // What the actions act on: stored messages, attachments normalised, the URL preview among them.
    const stored = (await alice.call('chat.fetchMessages', { chat: bot.botUserId, limit: 10 })).body as Array<{ attachments?: unknown[] }>;
    for (const message of stored) expectShape(Message, message, 'message');
    const attachments = stored.flatMap((message) => message.attachments ?? []);
    expect(attachments).toHaveLength(3);
    for (const attachment of attachments) expectShape(Attachment, attachment, 'attachment');
    expect(attachments).toContainEqual({ title: 'A preview', url: `https://${previewHost}/pr/7`, color: '#aabbcc', appId: app.id });
  });
});
