import { ApiError } from '../../errors.js';
import type { TeamsTable, UsersTable } from '../../store/schema.js';

/**
 * Who may do what with apps (docs/reference/app-permissions.md).
 *
 * - Creating an app is a team setting, `app_creators`: `members` (members and admins, the default),
 *   `admins`, or `everyone` (guests too). Guests are outsiders by design, so by default they do not
 *   get an app secret that events of the team are signed with.
 * - Where an app's events and tokens go (listener, configuration and integration URLs, allowed
 *   origins) is the developer's alone: a team admin who could point another person's app at their own
 *   listener would receive every user token and event of that app.
 */

export type AppCreators = TeamsTable['app_creators'];

export const appCreatorChoices = ['members', 'admins', 'everyone'] as const satisfies readonly AppCreators[];

const rolesAllowed: Record<AppCreators, ReadonlyArray<UsersTable['role']>> = {
  everyone: ['admin', 'user', 'guest'],
  members: ['admin', 'user'],
  admins: ['admin'],
};

const whoMay: Record<AppCreators, string> = {
  everyone: 'everyone in it',
  members: 'its members and admins, not guests',
  admins: 'its admins only',
};

/** PermissionDenied unless the team's `app_creators` setting lets this person create apps. */
export function requireMayCreateApps(person: Pick<UsersTable, 'role'>, appCreators: AppCreators): void {
  if (rolesAllowed[appCreators].includes(person.role)) return;
  throw new ApiError(
    'PermissionDenied',
    `In this team ${whoMay[appCreators]} may create apps, and you are ${person.role === 'admin' ? 'an admin' : `a ${person.role === 'user' ? 'member' : 'guest'}`}. A team admin can change who may.`,
  );
}

/** The app fields that decide where its events and tokens go: only the app's developer changes them. */
export const eventRoutingFields = ['listenerUrl', 'configurationUrl', 'integrations', 'allowedOrigins'] as const;
