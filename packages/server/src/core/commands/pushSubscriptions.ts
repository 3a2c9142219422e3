import { checkHttpUrl } from '../httpUrls.js';
import { invalidParameter } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { CommandContext } from '../context.js';
import type { SessionActor } from './accounts.js';
import { runChange } from '../effects/effects.js';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * push.subscribe: a browser's subscription for the person, from their session: it is pushed to only while
 * that session lasts (core/push/pushMessage.ts). One endpoint is one browser profile: subscribing it again
 * (the same person, or another who signed in there since) replaces its owner, session and keys.
 */
export async function subscribePush(ctx: CommandContext, { person: user, sessionHash }: Pick<SessionActor, 'person' | 'sessionHash'>, input: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<string> {
  const endpoint = checkHttpUrl('endpoint', input.endpoint);
  for (const name of ['p256dh', 'auth'] as const) {
    if (!BASE64URL.test(input.keys[name])) throw invalidParameter(`keys.${name}`, `keys.${name} must be base64url, as PushSubscription.toJSON().keys gives it.`);
  }
  if (Buffer.from(input.keys.p256dh, 'base64url').length !== 65) {
    throw invalidParameter('keys.p256dh', 'keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url).');
  }
  if (Buffer.from(input.keys.auth, 'base64url').length < 16) throw invalidParameter('keys.auth', 'keys.auth must be at least 16 bytes (base64url).');
  const row = { user_id: user.id, team_id: user.team_id, session_hash: sessionHash, p256dh: input.keys.p256dh, auth: input.keys.auth, created_at: ctx.now() };
  await runChange(ctx, async (tx) => {
    await tx.insertInto('push_subscriptions').values({ endpoint, ...row }).onConflict((c) => c.column('endpoint').doUpdateSet(row)).execute();
  });
  return endpoint;
}

/** push.unsubscribe: only the person's own subscription goes. */
export async function unsubscribePush(ctx: CommandContext, user: UsersTable, { endpoint }: { endpoint: string }): Promise<void> {
  await runChange(ctx, async (tx) => {
    await tx.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).where('user_id', '=', user.id).execute();
  });
}
