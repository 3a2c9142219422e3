import type { TeamRow } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/** team.updateMentionSettings: the channel size above which only team admins may use @channel and @here (0: no limit). */
export async function setBroadcastMentionLimit(db: Db, teamId: string, limit: number): Promise<TeamRow> {
  await db.updateTable('teams').set({ broadcast_mention_limit: limit }).where('id', '=', teamId).execute();
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirstOrThrow();
}
