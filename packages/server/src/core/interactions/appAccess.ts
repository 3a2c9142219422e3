import { ApiError, invalidParameter } from '../../errors.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { appDisabledBy, appDisabledError, appUseRefusal } from '../policies/apps.js';

export interface UsableApp {
  app: AppsTable;
  installed: boolean;
}

/**
 * An app of the person's team that is not disabled for them. Installing is not needed to send a bot's
 * message's events to its listener: anyone who sees the message may press its buttons. Opening a widget
 * or browser page needs the install too (requireWidgetAccess). A disabled app answers AppDisabled, as its tokens do.
 */
export async function findUsableApp(db: Db, person: UsersTable, appId: string, parameter = 'appId'): Promise<UsableApp> {
  const row = await db
    .selectFrom('apps as a')
    .leftJoin('installs as i', (join) => join.onRef('i.app_id', '=', 'a.id').on('i.user_id', '=', person.id))
    .selectAll('a')
    .select(['i.app_id as installedAppId', 'i.disabled_by_user as disabledByUser'])
    .where('a.id', '=', appId)
    .where('a.team_id', '=', person.team_id)
    .executeTakeFirst();
  if (!row) throw invalidParameter(parameter, `There is no app ${appId} in your team.`);
  const { installedAppId, disabledByUser, ...app } = row;
  const installed = installedAppId !== null;
  const refusal = appDisabledBy({ disabledByTeam: app.disabled_by_team, disabledByUser });
  if (refusal) throw appDisabledError(refusal, app.name, 'use it');
  return { app, installed };
}

/** Like findUsableApp, for what only an installed app shows: its buttons, message action and commands. */
export async function findInstalledApp(db: Db, person: UsersTable, appId: string): Promise<AppsTable> {
  const { app, installed } = await findUsableApp(db, person, appId);
  if (!installed) throw invalidParameter('appId', `You have not installed ${app.name} (${app.id}); its buttons and actions appear once you do.`);
  return app;
}

/**
 * What every widget or browser URL of an app needs before a token is signed into it: the person has
 * installed the app, and neither they nor a team admin disabled it. A URL carries a 24-hour token that
 * vouches for the person to the app, so an app the person never chose must not receive one. (A bot's
 * button that only sends an event to the listener stays open to anyone who sees the message.)
 */
export async function requireWidgetAccess(db: Db, userId: string, appId: string): Promise<void> {
  const row = await db
    .selectFrom('apps as a')
    .leftJoin('installs as i', (join) => join.onRef('i.app_id', '=', 'a.id').on('i.user_id', '=', userId))
    .select(['a.name', 'a.disabled_by_team as disabledByTeam', 'i.app_id as installedAppId', 'i.disabled_by_user as disabledByUser'])
    .where('a.id', '=', appId)
    .executeTakeFirst();
  // An app deleted since the caller found it is installed by nobody.
  const refusal = row ? appUseRefusal({ ...row, installed: row.installedAppId !== null }) : 'notInstalled';
  if (!row || refusal === 'notInstalled') {
    throw new ApiError('NotInstalled', `You have not installed ${row?.name ?? appId}; install it to open its widgets and pages, which tell it who you are.`);
  }
  if (refusal) throw appDisabledError(refusal, row.name, 'open its widgets');
}
