import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { PublicProfileRow } from '../presenters/users.js';
import { guestReach } from './guestReach.js';

/**
 * Which bots a roster lists: those of the apps the person installed (`roster.listContacts`, as the
 * specification decides), or every active bot of the team (the web client's roster: a bot is a team
 * member, so its messages are named to everyone, installed or not).
 */
export type RosterBots = 'installed' | 'team';

/**
 * Who a person may reach: their active teammates (people, not bots; for a guest, only those of guestReach)
 * and bots (RosterBots), by name.
 * `roster.listContacts` and the web client's roster both answer this.
 */
export async function listContacts(db: Db, me: Pick<UsersTable, 'id' | 'team_id' | 'role'>, bots: RosterBots = 'installed'): Promise<Array<PublicProfileRow & { isBot: boolean }>> {
  const reach = me.role === 'guest' ? await guestReach(db, me) : undefined;
  const people = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'profile_image', 'status_text', 'status_emoji', 'status_expires_at'])
    .where('team_id', '=', me.team_id)
    .where('id', '!=', me.id)
    // People only: bots come from the caller's installs below, and the team's system user has no email either.
    .where('email', 'is not', null)
    .where('deactivated_at', 'is', null)
    .execute();
  const botRows = await (bots === 'installed'
    ? db
        .selectFrom('installs as i')
        .innerJoin('apps as a', 'a.id', 'i.app_id')
        .innerJoin('users as u', 'u.id', 'a.bot_user_id')
        .select(['u.id', 'u.first_name', 'u.last_name', 'u.profile_image'])
        .where('i.user_id', '=', me.id)
        .where('u.deactivated_at', 'is', null)
    : db
        .selectFrom('apps as a')
        .innerJoin('users as u', 'u.id', 'a.bot_user_id')
        .select(['u.id', 'u.first_name', 'u.last_name', 'u.profile_image'])
        .where('a.team_id', '=', me.team_id)
        .where('u.deactivated_at', 'is', null)
  ).execute();
  const teammates = reach ? people.filter((row) => reach.has(row.id)) : people;
  return [...teammates.map((row) => ({ ...row, isBot: false })), ...botRows.map((row) => ({ ...row, isBot: true }))].sort(byName);
}

/** In code, not SQL: the two dialects collate text differently, and the order must not depend on it. */
function byName(a: PublicProfileRow, b: PublicProfileRow): number {
  return a.first_name.localeCompare(b.first_name) || a.last_name.localeCompare(b.last_name) || (a.id < b.id ? -1 : 1);
}

/** A user of `teamId` by id; another team's user is not found, exactly like one that does not exist. */
export async function findTeammateProfile(db: Db, teamId: string, userId: string): Promise<PublicProfileRow | undefined> {
  return db.selectFrom('users').select(['id', 'first_name', 'last_name', 'profile_image', 'status_text', 'status_emoji', 'status_expires_at']).where('id', '=', userId).where('team_id', '=', teamId).executeTakeFirst();
}
