import type { MemberError } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { Selectable } from 'kysely';
import type { ChannelMembersTable, ChannelsTable, Database, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/**
 * Who may see a channel and change its members (docs/reference/methods.md, channels.*).
 *
 * The rules docs/reference/methods.md states, and why:
 * - A team admin has a moderator's powers in every channel the admin can see, so a public channel is
 *   never left without anyone able to manage it; signed in (a session, the admin console), an admin
 *   manages the members of every channel of the team, private ones the admin is not in too (audit-logged).
 * - Bots are never members, so a bot may neither create a channel nor change anyone's membership.
 * - Anyone in the team may add themselves to a public channel (join it), since they can already see it.
 * - Guests may be added only by someone with a moderator's powers (channel moderator or team admin):
 *   otherwise any member of a public channel could open it, and everything said in it, to outsiders.
 * - Removing someone else takes a moderator's powers in public channels too; anyone may remove themselves.
 */

type ChannelRow = Selectable<Database['channels']>;

/** A channel as one user sees it: the row and the user's membership, if any. */
export interface ChannelAccess {
  channel: ChannelRow;
  membership: ChannelMembersTable | undefined;
}

const isBot = (user: UsersTable): boolean => user.bot_app_id !== null;
/** Bots and the team's system user have no email: only people (who always have one) join channels. */
const isPerson = (user: UsersTable): boolean => user.email !== null;

const BOTS_ARE_NOT_MEMBERS = 'Bots cannot be channel members, so a bot token cannot create channels or change members; use a user token.';

/** Public channels are visible to their whole team; private ones only to their members. */
export function canSeeChannel(viewer: UsersTable, access: ChannelAccess): boolean {
  return access.channel.team_id === viewer.team_id && (access.channel.type === 'public' || access.membership !== undefined);
}

/** The channel (its whole row, archived_at included) and the viewer's membership, when `viewer` may see it; undefined otherwise. */
export async function visibleChannel(db: Db, viewer: UsersTable, channelId: string): Promise<ChannelAccess | undefined> {
  const channel = await db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
  if (!channel) return undefined;
  const membership = await db.selectFrom('channel_members').selectAll().where('channel_id', '=', channelId).where('user_id', '=', viewer.id).executeTakeFirst();
  return canSeeChannel(viewer, { channel, membership }) ? { channel, membership } : undefined;
}

/**
 * The channel, when `viewer` may see it. A channel of another team and a private channel the viewer is not
 * in both answer UnknownChannel, so that nobody learns which channel ids exist.
 */
export async function findVisibleChannel(db: Db, viewer: UsersTable, channelId: string, parameter = 'channelId'): Promise<ChannelAccess> {
  const access = await visibleChannel(db, viewer, channelId);
  if (!access) throw new ApiError('UnknownChannel', `There is no channel ${channelId} that you can see.`, { parameter });
  return access;
}

/**
 * The channel whose members a team admin manages from a session (the admin console): any channel of the
 * admin's team, private ones the admin is not in too; anyone else reaches only the channels they see.
 * Through an app's token an admin reaches no further than they see: an app acting for an admin must not
 * open private channels the admin never joined.
 */
export async function findManagedChannel(db: Db, actor: UsersTable, channelId: string, viaSession: boolean): Promise<ChannelAccess> {
  if (!viaSession || actor.role !== 'admin') return findVisibleChannel(db, actor, channelId);
  const channel = await db.selectFrom('channels').selectAll().where('id', '=', channelId).where('team_id', '=', actor.team_id).executeTakeFirst();
  if (!channel) throw new ApiError('UnknownChannel', `There is no channel ${channelId} in your team.`, { parameter: 'channelId' });
  const membership = await db.selectFrom('channel_members').selectAll().where('channel_id', '=', channelId).where('user_id', '=', actor.id).executeTakeFirst();
  return { channel, membership };
}

/** A change of members made with a team admin's powers alone: the actor names others in a channel they do not moderate. */
export const byTeamAdminPowers = (actor: UsersTable, access: ChannelAccess, userIds: readonly string[]): boolean =>
  actor.role === 'admin' && access.membership?.affiliation !== 'moderator' && userIds.some((id) => id !== actor.id);

export function hasModeratorPowers(actor: UsersTable, access: ChannelAccess): boolean {
  return !isBot(actor) && (access.membership?.affiliation === 'moderator' || actor.role === 'admin');
}

export function authorizeCreateChannel(actor: UsersTable): void {
  if (isBot(actor)) throw new ApiError('PermissionDenied', BOTS_ARE_NOT_MEMBERS);
}

/** Throws PermissionDenied unless `actor` may add `userIds` to the channel. */
export function authorizeAddMembers(actor: UsersTable, access: ChannelAccess, userIds: readonly string[]): void {
  if (isBot(actor)) throw new ApiError('PermissionDenied', BOTS_ARE_NOT_MEMBERS);
  if (hasModeratorPowers(actor, access)) return;
  if (access.channel.type === 'private') {
    throw new ApiError('PermissionDenied', 'Only moderators of this private channel may add members.');
  }
  const joiningOnly = userIds.every((id) => id === actor.id);
  if (!access.membership && !joiningOnly) {
    throw new ApiError('PermissionDenied', 'Only members of this public channel may add others; add yourself first to join it.');
  }
}

/** Throws PermissionDenied when `userIds` names anyone but the actor and the actor may not remove others. */
export function authorizeRemoveMembers(actor: UsersTable, access: ChannelAccess, userIds: readonly string[]): void {
  if (userIds.every((id) => id === actor.id) || hasModeratorPowers(actor, access)) return;
  if (isBot(actor)) throw new ApiError('PermissionDenied', BOTS_ARE_NOT_MEMBERS);
  throw new ApiError('PermissionDenied', 'Only the channel’s moderators may remove others; anyone may remove themselves.');
}

/**
 * What `viewer` may do to a channel they see, answered yes or no: to its membership, the same rules as
 * authorizeAddMembers and authorizeRemoveMembers for a change that names someone other than the viewer;
 * to its purpose, maySetPurpose's; to its name, a moderator's powers (channels.rename).
 */
export function channelAbilities(viewer: UsersTable, access: ChannelAccess): { addMembers: boolean; removeMembers: boolean; setPurpose: boolean; rename: boolean } {
  const moderates = hasModeratorPowers(viewer, access);
  const open = access.channel.archived_at === null;
  return {
    addMembers: moderates || (!isBot(viewer) && access.channel.type === 'public' && access.membership !== undefined),
    removeMembers: moderates,
    setPurpose: open && maySetPurpose(viewer, access),
    // A team admin renames archived channels too, from the admin console.
    rename: moderates && (open || viewer.role === 'admin'),
  };
}

/**
 * Who may say what a channel is about (channels.setPurpose): its members, but not guests, who are in a
 * channel to take part rather than to shape it; and a team admin, in any channel of the team. Archived or
 * not is the command's to say (ChannelArchived).
 */
export function maySetPurpose(person: UsersTable, access: ChannelAccess): boolean {
  if (isBot(person)) return false;
  return person.role === 'admin' || (access.membership !== undefined && person.role !== 'guest');
}

/**
 * Why `target` (undefined when no such user exists) cannot become a member, or undefined when it can.
 * Whether it already is one is left to the insert, which knows for certain.
 */
export function whyNotAddable(target: UsersTable | undefined, channel: ChannelsTable, addedWithModeratorPowers: boolean): MemberError | undefined {
  if (!target) return 'UserNotFound';
  if (target.team_id !== channel.team_id) return 'UserNotFromSameTeam';
  if (!isPerson(target) || target.deactivated_at !== null) return 'UserRestricted';
  if (target.role === 'guest' && !addedWithModeratorPowers) return 'UserRestricted';
  return undefined;
}

/** Why `target` cannot be removed, or undefined when it can; `isMember` says whether it is in the channel. */
export function whyNotRemovable(target: UsersTable | undefined, channel: ChannelsTable, isMember: boolean): MemberError | undefined {
  if (!target) return 'UserNotFound';
  if (target.team_id !== channel.team_id) return 'UserNotFromSameTeam';
  if (!isMember) return 'NotMember';
  return undefined;
}
