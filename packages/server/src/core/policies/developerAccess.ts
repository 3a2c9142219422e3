import { eventRoutingFields } from '@aviary/protocol';
import type { AppFieldInput } from '../appFields.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';

/**
 * Who may do what with an app through the developer methods (apps.* on one app, deliveries.*;
 * docs/reference/app-permissions.md):
 * - its developer: everything;
 * - the app itself, calling with its secret: everything its developer does to it, but deleting it;
 * - a team admin of the app's team: see it (never its secret), rename, describe, delete it;
 *   never its credentials (secret, bot token), where its events and tokens go, nor its deliveries,
 *   which carry what people sent the app (direct and private-channel messages to its bot);
 * - anyone else: nothing, and the API answers as for an id that does not exist.
 */
export type AppAbility = 'see' | 'edit' | 'delete' | 'route' | 'credentials' | 'deliveries';

/** Who asks: a person, or an app that proved its secret (`appItself`: its id). */
export type AppManager = { person: Pick<UsersTable, 'id' | 'team_id' | 'role'> } | { appItself: string };

const developer: ReadonlySet<AppAbility> = new Set(['see', 'edit', 'delete', 'route', 'credentials', 'deliveries']);
const itself: ReadonlySet<AppAbility> = new Set(['see', 'edit', 'route', 'credentials', 'deliveries']);
const teamAdmin: ReadonlySet<AppAbility> = new Set(['see', 'edit', 'delete']);
const nothing: ReadonlySet<AppAbility> = new Set();

/** What `who` may do with `app` (undefined: no such app); an empty set: nothing at all. */
export function appAbilities(app: Pick<AppsTable, 'id' | 'developer_id' | 'team_id'> | undefined, who: AppManager): ReadonlySet<AppAbility> {
  if (!app) return nothing;
  if ('appItself' in who) return who.appItself === app.id ? itself : nothing;
  if (app.developer_id === who.person.id) return developer;
  return app.team_id === who.person.team_id && who.person.role === 'admin' ? teamAdmin : nothing;
}

/**
 * The first field among `changes` that decides where the app's events and user tokens go, when the
 * abilities do not include that (`route`): a team admin may rename and describe, never redirect.
 */
export function refusedRoutingField(abilities: ReadonlySet<AppAbility>, changes: AppFieldInput): (typeof eventRoutingFields)[number] | undefined {
  if (abilities.has('route')) return undefined;
  return eventRoutingFields.find((name) => changes[name] !== undefined);
}
