import type { AdminChannel, AdminPerson } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import { presentChannel } from '../presenters/channels.js';
import { presentUser } from '../presenters/users.js';

type PersonRow = UsersTable & { last_active_at: number | null; last_seen_at: number | null };

export function presentAdminPerson(row: PersonRow, now: number): AdminPerson {
  const seen = [row.last_active_at, row.last_seen_at].filter((at) => at !== null).map(Number);
  return { user: presentUser(row, now), deactivatedAt: row.deactivated_at, lastActiveAt: seen.length === 0 ? null : Math.max(...seen), createdAt: row.created_at };
}

/**
 * The team's people (bots and the system user, who have no email, left out), by name, with when they
 * were last active: the last use of any of their sessions, or of one that has ended since (people_last_seen).
 */
export async function listTeamPeople(db: Db | Tx, teamId: string, now: number, userId?: string): Promise<AdminPerson[]> {
  let query = db
    .selectFrom('users as u')
    .selectAll('u')
    .select((eb) => eb.selectFrom('sessions as s').select((s) => s.fn.max('s.last_seen_at').as('m')).whereRef('s.user_id', '=', 'u.id').as('last_active_at'))
    .select((eb) => eb.selectFrom('people_last_seen as p').select('p.last_seen_at').whereRef('p.user_id', '=', 'u.id').as('last_seen_at'))
    .where('u.team_id', '=', teamId)
    .where('u.bot_app_id', 'is', null)
    .where('u.email', 'is not', null);
  if (userId !== undefined) query = query.where('u.id', '=', userId);
  const rows = await query.orderBy('u.first_name').orderBy('u.last_name').orderBy('u.id').execute();
  return rows.map((row) => presentAdminPerson(row as PersonRow, now));
}

/** One person of the team as the console shows them, or undefined (bots and other teams' people too). */
export async function findTeamPerson(db: Db | Tx, teamId: string, userId: string, now: number): Promise<AdminPerson | undefined> {
  return (await listTeamPeople(db, teamId, now, userId))[0];
}

/** Every channel of the team, archived and private ones too, by name, with whether `viewerId` is in it. */
export async function listTeamChannels(db: Db, teamId: string, viewerId: string): Promise<AdminChannel[]> {
  const rows = await db
    .selectFrom('channels as c')
    .selectAll('c')
    .select((eb) => eb.selectFrom('channel_members as m').select((m) => m.fn.countAll().as('n')).whereRef('m.channel_id', '=', 'c.id').as('member_count'))
    .select((eb) =>
      eb.exists(eb.selectFrom('channel_members as v').select('v.user_id').whereRef('v.channel_id', '=', 'c.id').where('v.user_id', '=', viewerId)).as('is_member'),
    )
    .where('c.team_id', '=', teamId)
    .orderBy('c.name')
    .orderBy('c.id')
    .execute();
  return rows.map((row) => ({ channel: presentChannel(row, Number(row.member_count)), isMember: Boolean(row.is_member), createdAt: row.created_at }));
}
