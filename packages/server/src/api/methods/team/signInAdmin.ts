import type { ServerContext } from '../../../context.js';
import type { SignInStore } from '../../../core/signIn/settings.js';
import type { UsersTable } from '../../../store/schema.js';
import { ApiError } from '../../errors.js';

/** Sign-in settings are a team admin's alone. */
export function onlyTeamAdmins(user: UsersTable, verb: 'read' | 'change'): void {
  if (user.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may ${verb} how the team signs in.`);
}

export const signInStore = (ctx: ServerContext): SignInStore => ({ db: ctx.db, keyring: ctx.store.keyring, envProvider: ctx.config.oidc });
