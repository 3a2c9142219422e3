/**
 * One example of each event, as the service sends it: shown in the OpenAPI webhooks and the reference,
 * and checked against the schemas by the protocol's tests.
 */
import type { EventName, EventOf } from './events.js';

const userId = 'u:adalovelace2c4ab';
const chat = 'g:engineering234ab';
const common = { userId, userName: 'Ada Lovelace', chat, chatName: 'engineering' };
const message = {
  uid: '01JD3ZK4Q8X7V2M9N5P6R3T1W0',
  from: userId,
  to: 'u:deploybot234abcd',
  timestamp: 1_732_300_000_000,
  text: 'deploy the docs, please',
};

const ref = { uid: message.uid, from: message.from, to: message.to };
const channelRef = { id: chat, name: 'engineering', type: 'private' as const };

export const eventExamples: { [N in EventName]: EventOf<N> } = {
  'app.install': { name: 'app.install', userId, token: 'au_3qYQ9kN2xV7mZ4', userToken: 'au_3qYQ9kN2xV7mZ4' },
  'app.uninstall': { name: 'app.uninstall', userId },
  'chat.receiveMessage': { name: 'chat.receiveMessage', userId, message },
  'chat.generateUrlPreview': {
    name: 'chat.generateUrlPreview',
    userId,
    url: 'https://tracker.example.com/issues/42',
    chat,
    to: chat,
    messageUid: '01JD3ZM0B4C5D6E7F8G9H0J1K2',
  },
  'client.pressButton': {
    name: 'client.pressButton',
    ...common,
    button: 'attachmentButton',
    messageUid: '01JD3ZM0B4C5D6E7F8G9H0J1K2',
    attachmentId: 'deploy-42',
    buttonId: 'approve',
  },
  'client.slashCommand': { name: 'client.slashCommand', ...common, command: 'deploy', text: 'docs --to production' },
  'client.messageAction': { name: 'client.messageAction', ...common, messageUids: [message.uid], messages: [message] },
  'client.openAttachmentWidget': { name: 'client.openAttachmentWidget', ...common, messageUid: '01JD3ZM0B4C5D6E7F8G9H0J1K2', attachmentId: 'chart' },
  'client.widgetAction': { name: 'client.widgetAction', ...common, messageUid: '01JD3ZM0B4C5D6E7F8G9H0J1K2', attachmentId: 'chart' },
  'client.servicemlAction': { name: 'client.servicemlAction', ...common, messageUid: '01JD3ZM0B4C5D6E7F8G9H0J1K2', actionId: 'vote-yes' },
  'chat.messageUpdated': { name: 'chat.messageUpdated', userId, message: { ...message, text: 'deploy the docs, please (staging first)', editedAt: 1_732_300_060_000 } },
  'chat.messageDeleted': { name: 'chat.messageDeleted', userId, message: ref },
  'chat.reactionAdded': { name: 'chat.reactionAdded', userId, message: ref, emoji: '👍' },
  'chat.reactionRemoved': { name: 'chat.reactionRemoved', userId, message: ref, emoji: '👍' },
  'channel.memberJoined': { name: 'channel.memberJoined', userId: 'u:gracehopper2c4ab', channel: channelRef, byUserId: userId },
  'channel.memberLeft': { name: 'channel.memberLeft', userId: 'u:gracehopper2c4ab', channel: channelRef },
  'channel.created': { name: 'channel.created', userId, channel: channelRef, memberCount: 3 },
};

/**
 * The example of one event as if `person` sent it: what `aviary trigger` and the dashboard's "send a test
 * event" deliver, so that both send the same realistic fixture.
 */
export function exampleEventFrom<N extends EventName>(name: N, person: { id: string; firstName: string; lastName: string }): EventOf<N> {
  const example: Record<string, unknown> = { ...eventExamples[name], userId: person.id };
  if ('userName' in example) example.userName = `${person.firstName} ${person.lastName}`;
  return example as EventOf<N>;
}
