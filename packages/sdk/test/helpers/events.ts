import { SignJWT } from 'jose';
import type { AviaryEvent, EventOf, EventName, EventTokenClaims } from '@aviary/protocol';

export const appId = 'a:testapp0000000001';
export const appSecret = 'test-app-secret-with-enough-entropy-0123456789';
export const userId = 'u:aaaaaaaaaaaaaaaa';
export const otherUserId = 'u:bbbbbbbbbbbbbbbb';

let nextJti = 1;

/** Signs the way the service does (HS256, app secret as UTF-8); every claim can be overridden or removed (`undefined`). */
export async function signEventToken(
  claims: Partial<Record<keyof EventTokenClaims, unknown>> = {},
  { secret = appSecret, alg = 'HS256', nowMs = Date.now() }: { secret?: string; alg?: string; nowMs?: number } = {},
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const payload: Record<string, unknown> = { appId, userId, iat, exp: iat + 600, jti: `evt-${nextJti++}`, ...claims };
  for (const [key, value] of Object.entries(payload)) if (value === undefined) delete payload[key];
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
}

/** An unsigned token: header {"alg":"none"}, empty signature. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

const common = { userId, userName: 'Ada Lovelace', chat: 'g:cccccccccccccccc', chatName: 'engineering' };

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
};

/** A fresh copy of a sample event, with the given fields changed. */
export function makeEvent<N extends EventName>(name: N, changes: Partial<EventOf<N>> = {}): EventOf<N> {
  return { ...structuredClone(samples[name] as AviaryEvent), ...changes } as EventOf<N>;
}
