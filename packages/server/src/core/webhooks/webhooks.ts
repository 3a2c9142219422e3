import { timingSafeEqual } from 'node:crypto';
import type { api, ParamsOf, Webhook } from '@aviary/protocol';
import type { Static } from '@sinclair/typebox';
import { ApiError, invalidParameter } from '../../errors.js';
import { hashToken, newSecret, newWebhookId } from '../../store/ids.js';
import { lockName } from '../../store/rows/locks.js';
import type { UsersTable, WebhooksTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { AuditActor } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { checkVisibleName } from '../names.js';
import { checkOnBehalfOf, resolveRecipient } from '../policies/chat.js';

/**
 * Incoming webhooks (docs/reference/webhooks.md): made, listed and revoked here; posting through one is
 * post.ts's. A webhook belongs to whoever made it, through the app they made it with (null for a
 * person's session), and posts as them: when they may no longer post to the channel, it is refused.
 */

export type CreateWebhookInput = ParamsOf<typeof api.webhooks.create>;
export type WebhookModel = Static<typeof Webhook>;

export interface WebhookCaller {
  user: UsersTable;
  appId: string | null;
}

/** Live webhooks a channel may have at most. */
export const MAX_WEBHOOKS_PER_CHANNEL = 100;

export async function createWebhook(ctx: CommandContext, caller: WebhookCaller, input: CreateWebhookInput): Promise<{ row: WebhooksTable; secret: string }> {
  checkVisibleName('name', input.name);
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    await mayPost(tx, caller.user, input.channel, input.onBehalfOf);
    // A channel's new webhooks take turns from the count, so two at once cannot both pass it one short of the cap.
    await lockName(tx, `webhooks of ${input.channel}`);
    const live = await tx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', input.channel)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= MAX_WEBHOOKS_PER_CHANNEL) {
      throw invalidParameter('channel', `The channel has ${MAX_WEBHOOKS_PER_CHANNEL} webhooks already; revoke one (webhooks.revoke) first.`);
    }
    const secret = newSecret('');
    const row: WebhooksTable = {
      id: newWebhookId(),
      team_id: caller.user.team_id,
      channel_id: input.channel,
      owner_user_id: caller.user.id,
      app_id: caller.appId,
      on_behalf_of: input.onBehalfOf ?? null,
      name: input.name,
      icon_url: input.iconUrl ?? null,
      secret_hash: hashToken(secret),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    };
    await tx.insertInto('webhooks').values(row).execute();
    return { row, secret };
  });
}

/** chat.sendMessage's own rule for where the maker may post, with `channel` as the parameter it names. */
async function mayPost(db: Db, user: UsersTable, channel: string, onBehalfOf: string | undefined): Promise<void> {
  await checkOnBehalfOf(db, user, channel, onBehalfOf);
  try {
    await resolveRecipient(db, user, channel, onBehalfOf);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'UnknownRecipient' || error.code === 'ChannelArchived')) throw new ApiError(error.code, error.message, { parameter: 'channel' });
    throw error;
  }
}

/** The live (unrevoked) webhooks, oldest first. */
const liveWebhooks = (db: Db) => db.selectFrom('webhooks').selectAll().where('revoked_at', 'is', null).orderBy('created_at').orderBy('id');

/** A channel's live webhooks for a member of it, or (without `channel`) the caller's own. */
export async function listWebhooks(db: Db, caller: WebhookCaller, channel: string | undefined): Promise<WebhooksTable[]> {
  let query = liveWebhooks(db);
  if (channel !== undefined) {
    if (!(await isMember(db, caller.user, channel))) {
      throw new ApiError('UnknownChannel', `There is no channel ${channel} in your team of which you are a member.`, { parameter: 'channel' });
    }
    return query.where('channel_id', '=', channel).execute();
  }
  query = query.where('owner_user_id', '=', caller.user.id);
  return (caller.appId === null ? query.where('app_id', 'is', null) : query.where('app_id', '=', caller.appId)).execute();
}

/** Its maker (a person: whatever app they made it through), a moderator of its channel or a team admin revokes it. */
export async function revokeWebhook(ctx: CommandContext, caller: WebhookCaller, { webhook: id }: { webhook: string }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, async (tx) => {
    const hook = await tx.selectFrom('webhooks').selectAll().where('id', '=', id).where('team_id', '=', caller.user.team_id).where('revoked_at', 'is', null).executeTakeFirst();
    const unknown = () => new ApiError('UnknownWebhook', `There is no live webhook ${id} in your team that you can see.`, { parameter: 'webhook' });
    if (!hook) throw unknown();
    const maker = hook.owner_user_id === caller.user.id && (caller.appId === null || caller.appId === hook.app_id);
    if (!maker) {
      const affiliation = await membership(tx, caller.user, hook.channel_id);
      const admin = caller.user.role === 'admin' && caller.user.bot_app_id === null;
      if (affiliation !== 'moderator' && !admin) {
        if (affiliation === undefined) throw unknown();
        throw new ApiError('PermissionDenied', 'Only the webhook’s maker, a moderator of its channel or a team admin may revoke it.', { parameter: 'webhook' });
      }
    }
    await tx.updateTable('webhooks').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  });
}

/** The live webhooks made through an app (its developer's view: apps.listWebhooks), oldest first. */
export async function listAppWebhooks(db: Db, appId: string): Promise<WebhooksTable[]> {
  return liveWebhooks(db).where('app_id', '=', appId).execute();
}

/**
 * Revokes a live webhook made through `appId` (apps.revokeWebhook); any other id is UnknownWebhook.
 * `_actor`: whoever's access to the app the handler checked.
 */
export async function revokeAppWebhook(ctx: CommandContext, _actor: AuditActor, { appId, webhook: id }: { appId: string; webhook: string }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, async (tx) => {
    const result = await tx.updateTable('webhooks').set({ revoked_at: now }).where('id', '=', id).where('app_id', '=', appId).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new ApiError('UnknownWebhook', `The app has no live webhook ${id}.`, { parameter: 'webhook' });
  });
}

/**
 * The live webhook a URL names, when its secret is right; undefined for an unknown id, a wrong secret
 * and a revoked webhook alike (the URL's answer tells them apart to nobody).
 */
export async function findWebhookBySecret(db: Db, id: string, secret: string): Promise<WebhooksTable | undefined> {
  const hook = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!hook) return undefined;
  const given = Buffer.from(hashToken(secret), 'hex');
  const stored = Buffer.from(hook.secret_hash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return undefined;
  return hook.revoked_at === null ? hook : undefined;
}

async function membership(db: Db, user: UsersTable, channel: string): Promise<'moderator' | 'member' | undefined> {
  const row = await db
    .selectFrom('channel_members as m')
    .innerJoin('channels as c', 'c.id', 'm.channel_id')
    .select('m.affiliation')
    .where('m.channel_id', '=', channel)
    .where('m.user_id', '=', user.id)
    .where('c.team_id', '=', user.team_id)
    .executeTakeFirst();
  return row?.affiliation;
}

const isMember = async (db: Db, user: UsersTable, channel: string): Promise<boolean> => (await membership(db, user, channel)) !== undefined;

export function presentWebhook(row: WebhooksTable): WebhookModel {
  return {
    id: row.id,
    channel: row.channel_id,
    name: row.name,
    ...(row.icon_url !== null ? { iconUrl: row.icon_url } : {}),
    createdBy: row.owner_user_id,
    ...(row.app_id !== null ? { appId: row.app_id } : {}),
    ...(row.on_behalf_of !== null ? { onBehalfOf: row.on_behalf_of } : {}),
    createdAt: row.created_at,
    ...(row.last_used_at !== null ? { lastUsedAt: row.last_used_at } : {}),
  };
}
