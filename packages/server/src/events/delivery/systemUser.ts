import { newUserId } from '../../store/ids.js';
import type { Tx } from '../../store/store.js';
import { insertUser } from '../../store/rows/users.js';

/**
 * The team's system bot, "Aviary System", through which the service itself tells people things.
 * It is a plain user row (no email, no app) named by `teams.system_user_id`, made the first time it is needed.
 */
export async function teamSystemUser(tx: Tx, teamId: string, now: number): Promise<string> {
  const existing = await systemUserIdOf(tx, teamId);
  if (existing) return existing;
  const id = newUserId();
  await insertUser(tx, { id, team_id: teamId, first_name: 'Aviary', last_name: 'System', created_at: now });
  const claimed = await tx.updateTable('teams').set({ system_user_id: id }).where('id', '=', teamId).where('system_user_id', 'is', null).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 1) return id;
  // Another server made the team's system user first: use that one, leave no second.
  await tx.deleteFrom('users').where('id', '=', id).execute();
  const winner = await systemUserIdOf(tx, teamId);
  if (!winner) throw new Error(`team ${teamId} has no system user after a concurrent creation`);
  return winner;
}

async function systemUserIdOf(tx: Tx, teamId: string): Promise<string | null> {
  const team = await tx.selectFrom('teams').select('system_user_id').where('id', '=', teamId).executeTakeFirstOrThrow();
  return team.system_user_id;
}
