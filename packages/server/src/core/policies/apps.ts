import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { ApiError } from '../../errors.js';
import type { AppsTable, InstallsTable, TeamsTable, UsersTable } from '../../store/schema.js';

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


/**
 * May this person use this app? One rule, asked by method tokens, widgets and browser pages, buttons,
 * slash commands, URL previews, installs and `onBehalfOf`: a team admin has not disabled the app, and
 * the person has installed it and not disabled their install. A bot's button is the one use without an
 * install (anyone who sees the message may press it), never one of a disabled app.
 */
export interface AppUse {
  disabledByTeam: number | boolean;
  /** Whether the person has an install of the app. */
  installed: boolean;
  /** Their install's switch; null without an install. */
  disabledByUser: number | boolean | null;
}

export type AppDisabledBy = 'disabledByTeam' | 'disabledByUser';

/** Why the person may not use the app, or undefined when they may; a missing install is told first. */
export function appUseRefusal(use: AppUse): 'notInstalled' | AppDisabledBy | undefined {
  return use.installed ? appDisabledBy(use) : 'notInstalled';
}

/** The rule for a use that needs no install: who disabled the app, if anyone did. */
export function appDisabledBy(use: Omit<AppUse, 'installed'>): AppDisabledBy | undefined {
  if (use.disabledByTeam) return 'disabledByTeam';
  if (use.disabledByUser) return 'disabledByUser';
  return undefined;
}

/** AppDisabled for a disabled app: who disabled it, and what the person gets back by enabling it (`toDo`). */
export function appDisabledError(refusal: AppDisabledBy, appName: string, toDo: string): ApiError {
  return refusal === 'disabledByTeam'
    ? new ApiError('AppDisabled', `A team admin has disabled ${appName} for the whole team.`, { disabledBy: 'team' })
    : new ApiError('AppDisabled', `You have disabled ${appName}; enable it again to ${toDo}.`, { disabledBy: 'user' });
}

/**
 * The same rule as a query filter, where a list is read in one query (slash commands, URL previews):
 * apps `a` joined with the person's installs `i`, keeping the apps the person may use.
 */
export function usableInstalledApp<DB extends UseColumns>(eb: ExpressionBuilder<DB, 'a' | 'i'>): Expression<SqlBool> {
  // Kysely cannot type a comparison over a generic DB; the constraint on DB says these columns exist.
  const rule = eb as unknown as ExpressionBuilder<UseColumns, 'a' | 'i'>;
  return rule.and([rule('a.disabled_by_team', '=', 0), rule('i.disabled_by_user', '=', 0)]);
}

interface UseColumns {
  a: Pick<AppsTable, 'disabled_by_team'>;
  i: Pick<InstallsTable, 'disabled_by_user'>;
}
