import { doNotDisturbActive } from '@aviary/protocol';
import { request } from 'undici';
import webPush from 'web-push';
import type { MessagesTable, PushSubscriptionsTable } from '../../store/schema.js';
import { notificationSettingsOf } from '../queries/notificationSettings.js';
import type { CoreContext } from '../context.js';
import { displayName } from '../interactions/interactionChat.js';
import { isStoredBroadcast } from '../policies/broadcastMentions.js';
import type { OnlinePeople } from './onlinePeople.js';
import { vapidKeys } from './vapidKeys.js';
import { cutText } from '../textCut.js';

/** What a push carries, encrypted for the browser (the service worker shows it). */
export interface PushPayload {
  title: string;
  body: string;
  /** The message's permalink in the web client (a reply's: its thread's). */
  url: string;
  /** The chat as the recipient names it, and the message. */
  chat: string;
  uid: string;
}


const BODY_CHARS = 200;
const PUSH_TTL_SECONDS = 3600;
const PUSH_TIMEOUT_MS = 10_000;

/**
 * Web Push for a new message, after it was committed: to the recipient of a direct message, the people
 * a channel message mentions (by name, or @channel for every member; @here is for those online, who
 * have a stream) and, for a reply, the people who follow its thread (`followers`, still members of a
 * channel), when they have no stream open, have not muted the chat and are not in do-not-disturb.
 * Each of their subscriptions gets one encrypted push through the server's guarded agent; a subscription
 * the push service says is gone (404, 410) is forgotten.
 */
export async function pushForMessage(ctx: CoreContext, presence: OnlinePeople, message: MessagesTable, followers: readonly string[] = []): Promise<void> {
  const targets = await pushTargets(ctx, message, followers);
  if (targets.length === 0) return;
  const online = new Set(await presence.online(message.team_id, ctx.now()));
  const offline = targets.filter((id) => !online.has(id));
  if (offline.length === 0) return;
  const subscriptions = await standingSubscriptions(ctx, offline);
  if (subscriptions.length === 0) return;
  const people = await ctx.db.selectFrom('users').select(['id', 'timezone', 'first_name', 'last_name']).where('id', 'in', [message.from_user_id, ...offline]).execute();
  const sender = people.find((person) => person.id === message.from_user_id);
  const channel = message.chat_key.includes('|') ? undefined : await ctx.db.selectFrom('channels').select('name').where('id', '=', message.chat_key).executeTakeFirst();
  const keys = await vapidKeys(ctx.store, ctx.now);
  for (const person of people.filter((p) => offline.includes(p.id))) {
    const settings = await notificationSettingsOf(ctx.db, person);
    const chat = channel ? message.chat_key : message.from_user_id;
    if (settings.chats.some((entry) => entry.chat === chat && entry.level === 'mute') || doNotDisturbActive(settings, ctx.now())) continue;
    const from = sender ? displayName(sender) : 'Someone';
    const payload: PushPayload = {
      title: channel ? `${from} in #${channel.name}` : from,
      body: cutText(message.notification ?? message.text, BODY_CHARS),
      // A reply opens its thread beside its parent, as the web client's own links do.
      url: `/c/${encodeURIComponent(chat)}?m=${message.thread_parent === null ? message.uid : `${message.thread_parent}&thread=${message.thread_parent}`}`,
      chat,
      uid: message.uid,
    };
    for (const subscription of subscriptions.filter((s) => s.user_id === person.id)) await send(ctx, keys, subscription, payload);
  }
}

/**
 * The people's subscriptions whose session (or personal token) still stands: a browser signed out from
 * elsewhere, by a password change or by a deactivation gets no more pushes. The others are forgotten.
 */
async function standingSubscriptions(ctx: CoreContext, userIds: readonly string[]): Promise<PushSubscriptionsTable[]> {
  const now = ctx.now();
  const rows = await ctx.db
    .selectFrom('push_subscriptions as p')
    .selectAll('p')
    .select((eb) =>
      eb
        .or([
          eb.exists(eb.selectFrom('sessions as s').select('s.token_hash').whereRef('s.token_hash', '=', 'p.session_hash').whereRef('s.user_id', '=', 'p.user_id').where('s.expires_at', '>', now)),
          eb.exists(
            eb
              .selectFrom('personal_tokens as t')
              .select('t.token_hash')
              .whereRef('t.token_hash', '=', 'p.session_hash')
              .whereRef('t.user_id', '=', 'p.user_id')
              .where('t.revoked_at', 'is', null)
              .where((when) => when.or([when('t.expires_at', 'is', null), when('t.expires_at', '>', now)])),
          ),
        ])
        .as('standing'),
    )
    .where('p.user_id', 'in', userIds)
    .execute();
  for (const ended of rows.filter((row) => !row.standing)) {
    // Unless subscribed again meanwhile, from a session that stands.
    const sameSession = ended.session_hash === null ? ('is' as const) : ('=' as const);
    await ctx.db.deleteFrom('push_subscriptions').where('endpoint', '=', ended.endpoint).where('session_hash', sameSession, ended.session_hash).execute();
  }
  return rows.filter((row) => row.standing).map(({ standing: _standing, ...subscription }) => subscription);
}

async function pushTargets(ctx: CoreContext, message: MessagesTable, followers: readonly string[]): Promise<string[]> {
  let targets: string[];
  if (message.chat_key.includes('|')) {
    // Its recipient, who is also the only other follower a thread of a direct chat can have.
    targets = [message.to_id];
  } else {
    const mentions = message.mentions === null ? [] : (JSON.parse(message.mentions) as string[]);
    const members = await ctx.db.selectFrom('channel_members').select('user_id').where('channel_id', '=', message.chat_key).execute();
    const memberIds = members.map((m) => m.user_id);
    const named = mentions.includes('@channel') ? memberIds : mentions.filter((id) => !isStoredBroadcast(id) && memberIds.includes(id));
    targets = [...named, ...followers.filter((id) => memberIds.includes(id))];
  }
  const visible = message.visible_to === null ? undefined : (JSON.parse(message.visible_to) as string[]);
  return [...new Set(targets)].filter((id) => id !== message.from_user_id && (visible === undefined || visible.includes(id)));
}

async function send(
  ctx: CoreContext,
  keys: { publicKey: string; privateKey: string },
  subscription: { endpoint: string; p256dh: string; auth: string },
  payload: PushPayload,
): Promise<void> {
  const subject = ctx.config.publicUrl?.startsWith('https:') ? ctx.config.publicUrl : 'mailto:push@aviary.invalid';
  const details = webPush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(payload),
    { vapidDetails: { subject, ...keys }, TTL: PUSH_TTL_SECONDS, contentEncoding: 'aes128gcm' },
  );
  try {
    const answer = await request(details.endpoint, {
      method: 'POST',
      headers: details.headers as Record<string, string>,
      body: details.body ?? undefined,
      dispatcher: ctx.events.agent,
      headersTimeout: PUSH_TIMEOUT_MS,
      bodyTimeout: PUSH_TIMEOUT_MS,
    });
    await answer.body.dump();
    if (answer.statusCode === 404 || answer.statusCode === 410) {
      await ctx.db.deleteFrom('push_subscriptions').where('endpoint', '=', subscription.endpoint).execute();
    } else if (answer.statusCode >= 300) {
      ctx.log.warn({ status: answer.statusCode, uid: payload.uid }, 'a push service refused a Web Push');
    }
  } catch (error) {
    ctx.log.warn({ err: error, uid: payload.uid }, 'a Web Push could not be sent');
  }
}
