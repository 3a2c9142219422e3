import type { TeamRow } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { AppCreators } from '../policies/apps.js';
import { checkVisibleName } from '../names.js';

/** What a team admin may change (team.updateSettings); a setting left out stays as it is. */
export interface TeamSettings {
  /** The team's name, checked as a visible name. */
  name?: string | undefined;
  whoMayCreateChannels?: TeamRow['who_may_create_channels'] | undefined;
  appCreators?: AppCreators | undefined;
  whoMayInvite?: TeamRow['who_may_invite'] | undefined;
  /** How long after sending people may edit or delete their own messages; 0: no limit. */
  messageEditWindowMs?: number | undefined;
}

/** Changes a team's settings and returns the team as it now is. Apps made before a change of app creators stay. */
export async function updateTeamSettings(db: Db, teamId: string, settings: TeamSettings): Promise<TeamRow> {
  const change = {
    ...(settings.name !== undefined ? { name: checkVisibleName('name', settings.name.trim()) } : {}),
    ...(settings.whoMayCreateChannels !== undefined ? { who_may_create_channels: settings.whoMayCreateChannels } : {}),
    ...(settings.appCreators !== undefined ? { app_creators: settings.appCreators } : {}),
    ...(settings.whoMayInvite !== undefined ? { who_may_invite: settings.whoMayInvite } : {}),
    ...(settings.messageEditWindowMs !== undefined ? { message_edit_window_ms: settings.messageEditWindowMs } : {}),
  };
  if (Object.keys(change).length > 0) await db.updateTable('teams').set(change).where('id', '=', teamId).execute();
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirstOrThrow();
}

/** Changes who in the team may create apps (`aviary team update`). */
export const setAppCreators = (db: Db, teamId: string, appCreators: AppCreators): Promise<TeamRow> => updateTeamSettings(db, teamId, { appCreators });
