import type { ChannelMemberStatusModel, MemberError } from '@aviary/protocol';
import type { ChannelsTable, UsersTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import { inBatches } from '../../store/batches.js';
import { newChannelId } from '../../store/ids.js';
import { lockChannelPosting, lockRows } from '../../store/rows/locks.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { presentChannel } from '../presenters/channels.js';
import { channelCreated, channelMembersAdded, channelMembersRemoved } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { checkVisibleName } from '../names.js';
import { requireMayCreateChannels } from '../policies/admin.js';
import { byPerson, recordAudit } from '../audit/record.js';
import { appsInChannel, channelEventRef, enqueueChannelChangeEvents } from '../triggers/channelEvents.js';
import {
  authorizeAddMembers,
  authorizeCreateChannel,
  authorizeRemoveMembers,
  byTeamAdminPowers,
  findManagedChannel,
  hasModeratorPowers,
  whyNotAddable,
  whyNotRemovable,
} from '../policies/channels.js';
import { memberCount } from './internal/channelRows.js';

/**
 * Who changes a channel or its members: a person (`appId` null) or a token's user through the token's app,
 * which hears nothing of its own change. A person's session (or personal token) gives the client's address:
 * a team admin so signed in reaches every channel of the team (findManagedChannel), and the audit log
 * records where a change they made with those powers came from.
 */
export interface ChannelChanger {
  user: UsersTable;
  appId: string | null;
  clientAddress?: string;
}

/** What happened to each user id asked for, in the order they were asked for. */
export type MemberStatuses = Record<string, ChannelMemberStatusModel>;

export interface NewChannel {
  name: string;
  purpose?: string;
  profileImage?: string;
  type?: ChannelsTable['type'];
  /** Users to add beside the creator. */
  members: readonly string[];
}

/**
 * Creates a channel (private unless asked otherwise) with `actor` as its moderator, then adds `members`
 * as a moderator would. The actor naming themselves among `members` gets AlreadyMember, like any member.
 * Its members hear of it on the stream (`channel.created`), and the apps its members installed by one
 * `channel.created` event each.
 */
export async function createChannel(ctx: CommandContext, { user: actor, appId: byAppId }: ChannelChanger, input: NewChannel): Promise<{ channel: ChannelsTable; members: MemberStatuses }> {
  authorizeCreateChannel(actor);
  const name = checkVisibleName('name', input.name);
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    // The team's setting and the person's role as they stand now: a change of either (which holds the
    // team's row, PostgreSQL) under way is waited for, and one that comes later waits for this channel.
    await lockRows(tx, 'teams', 'id', [actor.team_id], 'key share');
    const team = await tx.selectFrom('teams').select('who_may_create_channels').where('id', '=', actor.team_id).executeTakeFirstOrThrow();
    const { role } = await tx.selectFrom('users').select('role').where('id', '=', actor.id).executeTakeFirstOrThrow();
    requireMayCreateChannels({ ...actor, role }, team.who_may_create_channels);
    const channel: ChannelsTable = {
      id: newChannelId(),
      team_id: actor.team_id,
      name,
      purpose: input.purpose ?? '',
      type: input.type ?? 'private',
      profile_image: input.profileImage ?? null,
      created_by: actor.id,
      created_at: now,
    };
    await tx.insertInto('channels').values(channel).execute();
    await tx.insertInto('channel_members').values({ channel_id: channel.id, user_id: actor.id, affiliation: 'moderator', joined_at: now }).execute();
    const members = await insertMembers(tx, channel, input.members, true, now);
    const memberIds = [actor.id, ...idsWithStatus(members, 'added')];
    await recordStreamEntries(tx, effects, channel.team_id, [channelCreated(presentChannel(channel, memberIds.length), memberIds)], now);
    const event = { name: 'channel.created' as const, userId: actor.id, channel: channelEventRef(channel), memberCount: memberIds.length };
    await enqueueChannelChangeEvents(tx, effects, await appsInChannel(tx, channel.id), { events: [event], byAppId }, now);
    return { channel, members };
  });
}

/**
 * Adds users to a channel `actor` can see, within the membership rules; each user gets a status. The apps
 * its members installed (after the change) get a `channel.memberJoined` per member added.
 */
export async function addChannelMembers(
  ctx: CommandContext,
  { user: actor, appId: byAppId, clientAddress }: ChannelChanger,
  { channelId, members: userIds }: { channelId: string; members: readonly string[] },
): Promise<MemberStatuses> {
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    const access = await findManagedChannel(tx, actor, channelId, clientAddress !== undefined);
    authorizeAddMembers(actor, access, userIds);
    const members = await insertMembers(tx, access.channel, userIds, hasModeratorPowers(actor, access), now);
    const added = idsWithStatus(members, 'added');
    if (added.length > 0) {
      if (clientAddress !== undefined && byTeamAdminPowers(actor, access, added)) await recordAdminMemberChange(tx, actor, clientAddress, 'channel.membersAdded', access.channel.id, added, now);
      const channel = presentChannel(access.channel, await memberCount(tx, channelId));
      await recordStreamEntries(tx, effects, access.channel.team_id, [channelMembersAdded(channel, added)], now);
      const events = added.map((userId) => ({ name: 'channel.memberJoined' as const, userId, channel: channelEventRef(access.channel), ...byOther(actor, userId) }));
      await enqueueChannelChangeEvents(tx, effects, await appsInChannel(tx, channelId), { events, byAppId }, now);
    }
    return members;
  });
}

/**
 * Removes users from a channel `actor` can see, within the membership rules; each user gets a status.
 * When the last moderator goes, the longest-standing member becomes moderator, so that a private channel
 * never ends up with nobody allowed to manage it. The apps its members installed before the change (the
 * removed members' included) get a `channel.memberLeft` per member removed.
 */
export async function removeChannelMembers(
  ctx: CommandContext,
  { user: actor, appId: byAppId, clientAddress }: ChannelChanger,
  { channelId, members: userIds }: { channelId: string; members: readonly string[] },
): Promise<MemberStatuses> {
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    // Sends under way are waited for, and sends meanwhile read the removal (lockChannelPosting). Removals
    // from one channel take turns (PostgreSQL): two moderators leaving at once each saw the other still
    // there, and neither handed the channel on.
    await lockChannelPosting(tx, channelId, 'close');
    await lockRows(tx, 'channels', 'id', [channelId], 'no key update');
    const access = await findManagedChannel(tx, actor, channelId, clientAddress !== undefined);
    authorizeRemoveMembers(actor, access, userIds);
    const wanted = [...new Set(userIds)];
    const users = await loadUsers(tx, wanted);
    const memberIds = await membersAmong(tx, channelId, wanted);
    const refusals = new Map(wanted.map((id) => [id, whyNotRemovable(users.get(id), access.channel, memberIds.has(id))]));
    const removable = wanted.filter((id) => refusals.get(id) === undefined);
    if (removable.length > 0) {
      if (clientAddress !== undefined && byTeamAdminPowers(actor, access, removable)) await recordAdminMemberChange(tx, actor, clientAddress, 'channel.membersRemoved', access.channel.id, removable, now);
      const appsBefore = await appsInChannel(tx, channelId);
      for (const batch of inBatches(removable, 1)) await tx.deleteFrom('channel_members').where('channel_id', '=', channelId).where('user_id', 'in', batch).execute();
      const newModerator = await keepAModerator(tx, channelId);
      const channel = presentChannel(access.channel, await memberCount(tx, channelId));
      await recordStreamEntries(tx, effects, access.channel.team_id, [channelMembersRemoved(channel, removable, newModerator)], now);
      const events = removable.map((userId) => ({ name: 'channel.memberLeft' as const, userId, channel: channelEventRef(access.channel), ...byOther(actor, userId) }));
      await enqueueChannelChangeEvents(tx, effects, appsBefore, { events, byAppId }, now);
    }
    return statusesInOrder(wanted, (id) => {
      const refusal = refusals.get(id);
      return refusal ? failed(refusal) : { status: 'removed' };
    });
  });
}

/** A team admin changed the members of a channel they do not moderate: the audit log says who, where and whom. */
async function recordAdminMemberChange(tx: Tx, admin: UsersTable, clientAddress: string, action: string, channelId: string, userIds: readonly string[], now: number): Promise<void> {
  await recordAudit(tx, { ...byPerson(admin, clientAddress), at: now, action, target: { kind: 'channel', id: channelId }, details: { userIds } });
}

/** The parameters of one channel_members row. */
const MEMBER_COLUMNS = 4;

async function insertMembers(db: Db, channel: ChannelsTable, userIds: readonly string[], withModeratorPowers: boolean, now: number): Promise<MemberStatuses> {
  const wanted = [...new Set(userIds)];
  const users = await loadUsers(db, wanted);
  const refusals = new Map(wanted.map((id) => [id, whyNotAddable(users.get(id), channel, withModeratorPowers)]));
  const addable = wanted.filter((id) => refusals.get(id) === undefined);
  // The insert, not an earlier read, decides AlreadyMember, so that two concurrent adds cannot both claim a user.
  const inserted = new Set<string>();
  for (const batch of inBatches(addable, MEMBER_COLUMNS)) {
    const rows = await db
      .insertInto('channel_members')
      .values(batch.map((id) => ({ channel_id: channel.id, user_id: id, affiliation: 'member' as const, joined_at: now })))
      .onConflict((conflict) => conflict.columns(['channel_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    for (const row of rows) inserted.add(row.user_id);
  }
  return statusesInOrder(wanted, (id) => {
    const refusal = refusals.get(id);
    if (refusal) return failed(refusal);
    return inserted.has(id) ? { status: 'added' } : failed('AlreadyMember');
  });
}

/** Returns the member made moderator, if the channel had none left. */
async function keepAModerator(db: Db, channelId: string): Promise<string | undefined> {
  const moderator = await db
    .selectFrom('channel_members')
    .select('user_id')
    .where('channel_id', '=', channelId)
    .where('affiliation', '=', 'moderator')
    .executeTakeFirst();
  if (moderator) return undefined;
  const eldest = await db
    .selectFrom('channel_members')
    .select('user_id')
    .where('channel_id', '=', channelId)
    .orderBy('joined_at')
    .orderBy('user_id')
    .executeTakeFirst();
  if (!eldest) return undefined;
  await db.updateTable('channel_members').set({ affiliation: 'moderator' }).where('channel_id', '=', channelId).where('user_id', '=', eldest.user_id).execute();
  return eldest.user_id;
}

/** `byUserId` of a membership event, when the member did not make the change themselves. */
const byOther = (actor: UsersTable, userId: string): { byUserId?: string } => (actor.id === userId ? {} : { byUserId: actor.id });

const idsWithStatus = (statuses: MemberStatuses, status: ChannelMemberStatusModel['status']): string[] =>
  Object.entries(statuses).flatMap(([id, entry]) => (entry.status === status ? [id] : []));

async function membersAmong(db: Db, channelId: string, ids: readonly string[]): Promise<Set<string>> {
  const members = new Set<string>();
  for (const batch of inBatches(ids, 1)) {
    const rows = await db.selectFrom('channel_members').select('user_id').where('channel_id', '=', channelId).where('user_id', 'in', batch).execute();
    for (const row of rows) members.add(row.user_id);
  }
  return members;
}

async function loadUsers(db: Db, ids: readonly string[]): Promise<Map<string, UsersTable>> {
  const users = new Map<string, UsersTable>();
  for (const batch of inBatches(ids, 1)) {
    for (const row of await db.selectFrom('users').selectAll().where('id', 'in', batch).execute()) users.set(row.id, row);
  }
  return users;
}

const failed = (error: MemberError): ChannelMemberStatusModel => ({ status: 'failed', error });

function statusesInOrder(ids: readonly string[], statusOf: (id: string) => ChannelMemberStatusModel): MemberStatuses {
  return Object.fromEntries(ids.map((id) => [id, statusOf(id)]));
}
