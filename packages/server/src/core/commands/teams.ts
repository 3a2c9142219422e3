import type { TeamsTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { AppCreators } from '../policies/apps.js';

/** Changes who in the team may create apps; apps made before stay. Returns the team as it now is. */
export async function setAppCreators(db: Db, teamId: string, appCreators: AppCreators): Promise<TeamsTable> {
  await db.updateTable('teams').set({ app_creators: appCreators }).where('id', '=', teamId).execute();
  return db.selectFrom('teams').select(['id', 'name', 'app_creators', 'created_at']).where('id', '=', teamId).executeTakeFirstOrThrow();
}
