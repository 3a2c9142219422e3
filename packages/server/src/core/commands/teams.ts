import type { TeamsTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { AppCreators } from '../policies/apps.js';

export interface TeamSettings {
  appCreators?: AppCreators;
  whoMayInvite?: TeamsTable['who_may_invite'];
}

/** Changes the team's settings given (who may create apps, who may invite); what was made before stays. Returns the team as it now is. */
export async function setTeamSettings(db: Db, teamId: string, settings: TeamSettings): Promise<TeamsTable> {
  const values = {
    ...(settings.appCreators !== undefined ? { app_creators: settings.appCreators } : {}),
    ...(settings.whoMayInvite !== undefined ? { who_may_invite: settings.whoMayInvite } : {}),
  };
  if (Object.keys(values).length > 0) await db.updateTable('teams').set(values).where('id', '=', teamId).execute();
  return db.selectFrom('teams').select(['id', 'name', 'app_creators', 'who_may_invite', 'created_at']).where('id', '=', teamId).executeTakeFirstOrThrow();
}

/** Changes who in the team may create apps; apps made before stay. Returns the team as it now is. */
export const setAppCreators = (db: Db, teamId: string, appCreators: AppCreators): Promise<TeamsTable> => setTeamSettings(db, teamId, { appCreators });
