import { isUserId, responseUrlLimits, type ClientEvent } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import { hashToken, newSecret } from '../../store/ids.js';
import type { ResponseUrlsTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CoreContext } from '../context.js';

/**
 * The `responseUrl` of a `client.*` event (docs/reference/events.md, "Replying later: responseUrl"): a
 * random token in the path of `POST /api/respond/:token`, stored as its SHA-256 only, good for
 * `responseUrlLimits.uses` replies within `responseUrlLimits.lifetimeMs` of the event.
 */

/** The events that carry one when they go to the listener. */
const answeredLater = new Set<string>(['client.slashCommand', 'client.pressButton', 'client.messageAction', 'client.servicemlAction']);

export const responseTokenPrefix = 'as_r_';

/**
 * Makes the event's response URL and returns the event carrying it; the event unchanged when it takes
 * none, or when the server does not know its own address (no AVIARY_PUBLIC_URL, and not listening: the CLI).
 */
export async function withResponseUrl<E extends ClientEvent>(ctx: Pick<CoreContext, 'db' | 'now' | 'config' | 'listeningUrl'>, appId: string, event: E): Promise<E> {
  const base = ctx.config.publicUrl ?? ctx.listeningUrl;
  if (!answeredLater.has(event.name) || base === undefined) return event;
  const app = await ctx.db.selectFrom('apps').select('team_id').where('id', '=', appId).executeTakeFirstOrThrow();
  const token = newSecret(responseTokenPrefix);
  const now = ctx.now();
  await ctx.db
    .insertInto('response_urls')
    .values({
      token_hash: hashToken(token),
      app_id: appId,
      team_id: app.team_id,
      user_id: event.userId,
      chat: event.chat,
      message_uid: 'messageUid' in event && typeof event.messageUid === 'string' ? event.messageUid : null,
      event_name: event.name,
      uses: 0,
      expires_at: now + responseUrlLimits.lifetimeMs,
      created_at: now,
    })
    .execute();
  return { ...event, responseUrl: `${base.replace(/\/+$/, '')}/api/respond/${token}` };
}

/**
 * Takes one reply of the URL, atomically (one UPDATE that counts only while uses remain and the URL
 * lives, so concurrent replies never exceed the limit), and answers the row; refuses an unknown, expired
 * or used-up URL in words that say which. Run in the reply's transaction: a reply refused after it was
 * taken rolls back with it.
 */
export async function takeReply(db: Db, token: string, now: number): Promise<ResponseUrlsTable> {
  const tokenHash = hashToken(token);
  const taken = await db
    .updateTable('response_urls')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('uses', '<', responseUrlLimits.uses)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  if (taken) return taken;
  const row = await db.selectFrom('response_urls').select(['uses', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) throw new ApiError('UnknownResponseUrl', 'No event gave this response URL; use the responseUrl of an event exactly as it came.', { parameter: 'token' });
  if (row.expires_at <= now) {
    throw new ApiError('ResponseUrlExpired', `This response URL expired ${Math.round((now - row.expires_at) / 1000)} s ago: it takes replies for ${responseUrlLimits.lifetimeMs / 60_000} minutes after its event; send later messages with chat.sendMessage.`, { parameter: 'token' });
  }
  throw new ApiError('ResponseUrlUsedUp', `This response URL has taken its ${responseUrlLimits.uses} replies; send more with chat.sendMessage.`, { parameter: 'token' });
}

/** Deletes the rows of URLs that expired before `now` (the retention job). */
export async function pruneExpiredResponseUrls(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('response_urls').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const isDirectChat = (chat: string): boolean => isUserId(chat);
