import type { AppFieldInput } from '../core/appFields.js';
import { appAbilities, refusedRoutingField, type AppAbility, type AppManager } from '../core/policies/developerAccess.js';
import { findApp, type AppRow } from '../core/queries/apps.js';
import type { Db } from '../store/store.js';
import type { AppSecretCaller, PersonCaller } from './caller.js';

/** Who reaches an app: a person (a method's caller, or a listen connection's opener), or the app with its secret. */
type Reacher = Pick<PersonCaller, 'kind' | 'user'> | AppSecretCaller;
import { ApiError } from './errors.js';

/** An app as a developer method reaches it, with what the caller may do to it (core/policies/developerAccess.ts). */
export interface ReachedApp {
  app: AppRow;
  abilities: ReadonlySet<AppAbility>;
}

const managerOf = (caller: Reacher): AppManager => (caller.kind === 'appSecret' ? { appItself: caller.appId } : { person: caller.user });

/**
 * The app, when the caller may reach it at all. Anyone else gets the same UnknownApp as for an id that
 * does not exist, so that app ids of other people are not confirmed.
 */
export async function reachApp(db: Db, caller: Reacher, appId: string): Promise<ReachedApp> {
  const app = await findApp(db, appId);
  const abilities = appAbilities(app, managerOf(caller));
  if (!app || abilities.size === 0) throw new ApiError('UnknownApp', `There is no app "${appId}" that you develop or administer.`);
  return { app, abilities };
}

/** Why each ability is the developer's: the end of a refusal's sentence. */
const whyDeveloperOnly: Partial<Record<AppAbility, string>> = {
  credentials: 'the credential it returns is shown to them alone',
  deliveries: 'events carry what people sent the app',
};

/** The reached app, or PermissionDenied when the caller lacks the ability (`what`: what they asked to do). */
export async function reachAppFor(db: Db, caller: Reacher, appId: string, ability: AppAbility, what: string): Promise<AppRow> {
  const reached = await reachApp(db, caller, appId);
  if (!reached.abilities.has(ability)) throw new ApiError('PermissionDenied', `Only the app's developer may ${what}: ${whyDeveloperOnly[ability] ?? 'it is theirs to do'}.`);
  return reached.app;
}

/**
 * Where the app's events and tokens go is its developer's to decide. A team admin may still rename it,
 * describe it, change its icon, disable it for the team or delete it, but never send its events elsewhere.
 */
export function requireRoutingAllowed(reached: ReachedApp, changes: AppFieldInput): void {
  const field = refusedRoutingField(reached.abilities, changes);
  if (field === undefined) return;
  throw new ApiError(
    'PermissionDenied',
    `Only the app's developer may change ${field}: it decides where the app's events and user tokens are sent. A team admin may rename, describe, disable or delete the app.`,
    { parameter: field },
  );
}
