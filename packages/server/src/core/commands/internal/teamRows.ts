import type { Db, Tx } from '../../../store/store.js';
import { newTeamId } from '../../../store/ids.js';

/** A new team's row, in the transaction of the command (createTeam) or of the import (core/transfer) that makes it. */
export async function insertTeam(db: Db | Tx, input: { name: string; now: number }): Promise<{ id: string }> {
  const id = newTeamId();
  await db.insertInto('teams').values({ id, name: input.name, app_creators: 'members', who_may_invite: 'admins', created_at: input.now }).execute();
  return { id };
}
