import type { TeamRow } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/** A team's row; it exists for as long as any of its people can call. */
export async function getTeam(db: Db, teamId: string): Promise<TeamRow> {
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirstOrThrow();
}
