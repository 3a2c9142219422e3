import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { AviaryEvent, EventOf, EventName, EventTokenClaims } from '@aviary/protocol';
import { toAppId, toChannelId, toUserId } from '../../src/index.js';

export const appId = toAppId('a:testapp0000000001');
export const appSecret = 'test-app-secret-with-enough-entropy-0123456789';
export const userId = toUserId('u:aaaaaaaaaaaaaaaa');
export const otherUserId = toUserId('u:bbbbbbbbbbbbbbbb');

let nextJti = 1;

/**
 * Signs the way the service does (HS256, app secret as UTF-8); every claim can be overridden or removed
 * (`undefined`). `route` and `sha256` are left out unless given, or unless `content` is given: then the
 * token is a listener's (unless `route` says otherwise) for exactly that content.
 */
export async function signEventToken(
  claims: Partial<Record<keyof EventTokenClaims, unknown>> = {},
  { secret = appSecret, alg = 'HS256', nowMs = Date.now(), content }: { secret?: string; alg?: string; nowMs?: number; content?: string } = {},
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const routed = content === undefined ? {} : { route: 'listener', sha256: sha256Of(content) };
  const payload: Record<string, unknown> = { appId, userId, iat, exp: iat + 600, jti: `evt-${nextJti++}`, ...routed, ...claims };
  for (const [key, value] of Object.entries(payload)) if (value === undefined) delete payload[key];
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
}

/** The `sha256` claim of a content: base64url SHA-256 of its UTF-8 bytes. */
export function sha256Of(content: string): string {
  return createHash('sha256').update(content).digest('base64url');
}

/** An unsigned token: header {"alg":"none"}, empty signature. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

const common = { userId, userName: 'Ada Lovelace', chat: 'g:cccccccccccccccc', chatName: 'engineering' };
const channel = { id: toChannelId('g:cccccccccccccccc'), name: 'engineering', type: 'private' as const };

const samples: { [N in EventName]: EventOf<N> } = {
  'app.install': { name: 'app.install', userId, token: 'user-token', userToken: 'user-token' },
  'app.uninstall': { name: 'app.uninstall', userId },
  'chat.receiveMessage': {
    name: 'chat.receiveMessage',
    userId,
    message: { uid: '01JABCDEFGHJKMNPQRSTVWXYZ0', from: userId, to: 'u:dddddddddddddddd', timestamp: 1_700_000_000_000, text: 'hello bot' },
  },
  'chat.generateUrlPreview': {
    name: 'chat.generateUrlPreview',
    userId,
    url: 'https://github.com/aviary/aviary',
    chat: common.chat,
    to: common.chat,
    messageUid: '01JABCDEFGHJKMNPQRSTVWXYZ1',
  },
  'client.pressButton': { name: 'client.pressButton', ...common, button: 'attachmentButton', messageUid: '01JABCDEFGHJKMNPQRSTVWXYZ2', attachmentId: 'att-1', buttonId: 'approve' },
  'client.slashCommand': { name: 'client.slashCommand', ...common, command: 'deploy', text: 'production' },
  'client.messageAction': { name: 'client.messageAction', ...common, messageUids: ['01JABCDEFGHJKMNPQRSTVWXYZ3'] },
  'client.openAttachmentWidget': { name: 'client.openAttachmentWidget', ...common, messageUid: '01JABCDEFGHJKMNPQRSTVWXYZ4', attachmentId: 'att-2' },
  'client.widgetAction': { name: 'client.widgetAction', ...common },
  'client.servicemlAction': { name: 'client.servicemlAction', ...common, messageUid: '01JABCDEFGHJKMNPQRSTVWXYZ5', actionId: 'vote-yes' },
  'chat.messageUpdated': {
    name: 'chat.messageUpdated',
    userId,
    message: { uid: '01JABCDEFGHJKMNPQRSTVWXYZ6', from: userId, to: common.chat, timestamp: 1_700_000_000_000, text: 'edited', editedAt: 1_700_000_060_000 },
  },
  'chat.messageDeleted': { name: 'chat.messageDeleted', userId, message: { uid: '01JABCDEFGHJKMNPQRSTVWXYZ6', from: userId, to: common.chat } },
  'chat.reactionAdded': { name: 'chat.reactionAdded', userId, message: { uid: '01JABCDEFGHJKMNPQRSTVWXYZ6', from: userId, to: common.chat }, emoji: '👍' },
  'chat.reactionRemoved': { name: 'chat.reactionRemoved', userId, message: { uid: '01JABCDEFGHJKMNPQRSTVWXYZ6', from: userId, to: common.chat }, emoji: '👍' },
  'channel.memberJoined': { name: 'channel.memberJoined', userId: otherUserId, channel, byUserId: userId },
  'channel.memberLeft': { name: 'channel.memberLeft', userId: otherUserId, channel },
  'channel.created': { name: 'channel.created', userId, channel, memberCount: 2 },
};

/** A fresh copy of a sample event, with the given fields changed. */
export function makeEvent<N extends EventName>(name: N, changes: Partial<EventOf<N>> = {}): EventOf<N> {
  return { ...structuredClone(samples[name] as AviaryEvent), ...changes } as EventOf<N>;
}
