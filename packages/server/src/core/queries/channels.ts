import type { ChannelsTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { ChannelMemberRow } from '../presenters/channels.js';

/** A channel's members with their profiles: moderators first, then in the order people joined. */
export async function listChannelMemberRows(db: Db, channelId: string): Promise<ChannelMemberRow[]> {
  return db
    .selectFrom('channel_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.affiliation', 'u.first_name', 'u.last_name', 'u.profile_image'])
    .where('m.channel_id', '=', channelId)
    .orderBy((eb) => eb.case().when('m.affiliation', '=', 'moderator').then(0).else(1).end())
    .orderBy('m.joined_at')
    .orderBy('m.user_id')
    .execute();
}

export interface PublicChannelRow {
  channel: ChannelsTable;
  memberCount: number;
  isMember: boolean;
}

/**
 * The public channels of `viewer`'s team, by name, with their member counts and whether `viewer` is in
 * each. A guest is offered only those they are in: they join no channel of their own accord, and the
 * others are not theirs to browse.
 */
export async function listPublicChannels(db: Db, viewer: UsersTable): Promise<PublicChannelRow[]> {
  const rows = await db
    .selectFrom('channels as c')
    .selectAll('c')
    .select((eb) => [
      eb.selectFrom('channel_members as m').select(eb.fn.countAll<number>().as('count')).whereRef('m.channel_id', '=', 'c.id').as('memberCount'),
      eb
        .selectFrom('channel_members as mine')
        .select(eb.fn.countAll<number>().as('count'))
        .whereRef('mine.channel_id', '=', 'c.id')
        .where('mine.user_id', '=', viewer.id)
        .as('mine'),
    ])
    .where('c.team_id', '=', viewer.team_id)
    .where('c.type', '=', 'public')
    .execute();
  // Sorted here rather than in SQL: the two dialects collate text differently, and the order must not depend on it.
  rows.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  const listed = rows.map(({ memberCount, mine, ...channel }) => ({ channel, memberCount: Number(memberCount), isMember: Number(mine) > 0 }));
  return viewer.role === 'guest' ? listed.filter((row) => row.isMember) : listed;
}

/** How many members a channel has. */
export async function countChannelMembers(db: Db, channelId: string): Promise<number> {
  const { count } = await db
    .selectFrom('channel_members')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('channel_id', '=', channelId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The channels `userId` is a member of, by name, with their member counts. */
export async function listChannelsOf(db: Db, userId: string): Promise<Array<{ channel: ChannelsTable; memberCount: number }>> {
  const rows = await db
    .selectFrom('channels as c')
    .innerJoin('channel_members as mine', 'mine.channel_id', 'c.id')
    .selectAll('c')
    .select((eb) =>
      eb.selectFrom('channel_members as m').select(eb.fn.countAll<number>().as('count')).whereRef('m.channel_id', '=', 'c.id').as('memberCount'),
    )
    .where('mine.user_id', '=', userId)
    .execute();
  // Sorted here rather than in SQL: the two dialects collate text differently, and the order must not depend on it.
  rows.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  return rows.map(({ memberCount, ...channel }) => ({ channel, memberCount: Number(memberCount) }));
}
