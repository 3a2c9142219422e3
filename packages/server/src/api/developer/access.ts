import { eventRoutingFields } from '@aviary/protocol';
import type { AppFieldInput } from '../../core/appFields.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { ApiError } from '../errors.js';

/** An app as the developer API lets one person reach it. */
export interface ReachableApp {
  app: AppsTable & { delivery_paused_at: number | null };
  /** The app's own developer; team admins may manage the app but never receive its credentials. */
  isDeveloper: boolean;
}

/**
 * The app, when the person develops it or is an admin of its team. Anyone else gets the same UnknownApp
 * as for an id that does not exist, so that app ids of other people are not confirmed.
 */
export async function reachableApp(db: Db, person: UsersTable, appId: string): Promise<ReachableApp> {
  const app = await db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
  const isDeveloper = app?.developer_id === person.id;
  const isTeamAdmin = app?.team_id === person.team_id && person.role === 'admin';
  if (!app || !(isDeveloper || isTeamAdmin)) throw new ApiError('UnknownApp', `There is no app "${appId}" that you develop or administer.`);
  return { app, isDeveloper };
}

/** Credentials (the secret, the bot token) are shown to the app's developer alone. */
export function requireDeveloper(reachable: ReachableApp, what: string, why = 'the credential it returns is shown to them alone'): void {
  if (!reachable.isDeveloper) {
    throw new ApiError('PermissionDenied', `Only the app's developer may ${what}: ${why}.`);
  }
}

/**
 * Where the app's events and tokens go is its developer's to decide. A team admin may still rename it,
 * describe it, change its icon, disable it for the team or delete it, but never send its events elsewhere.
 */
export function requireDeveloperForRouting(reachable: ReachableApp, changes: AppFieldInput): void {
  if (reachable.isDeveloper) return;
  const field = eventRoutingFields.find((name) => changes[name] !== undefined);
  if (field === undefined) return;
  throw new ApiError(
    'PermissionDenied',
    `Only the app's developer may change ${field}: it decides where the app's events and user tokens are sent. A team admin may rename, describe, disable or delete the app.`,
    { parameter: field },
  );
}

/**
 * The app whose event deliveries the person asks about: its developer's alone, as events carry what
 * people sent the app (direct and private-channel messages to its bot), which a team admin has no reason to read.
 */
export async function appOfDeliveryLog(db: Db, person: UsersTable, appId: string): Promise<AppsTable> {
  const reachable = await reachableApp(db, person, appId);
  requireDeveloper(reachable, 'see or act on its event deliveries', 'events carry what people sent the app');
  return reachable.app;
}
