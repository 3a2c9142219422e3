import type { UsersTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { hashToken } from '../core/ids.js';
import { ApiError } from './errors.js';

/** Who is calling: a user acting through one app, or an app's bot. */
export interface Caller {
  user: UsersTable;
  appId: string;
  kind: 'user' | 'bot';
  tokenHash: string;
}

/** Resolves a method token; InvalidToken and AppDisabled come from here, in that order. */
export async function authenticate(db: Db, token: string): Promise<Caller> {
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('app_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('apps as a', 'a.id', 't.app_id')
    .leftJoin('installs as i', (join) => join.onRef('i.app_id', '=', 't.app_id').onRef('i.user_id', '=', 't.user_id'))
    .selectAll('u')
    .select(['t.kind', 't.app_id as appId', 'a.disabled_by_team as disabledByTeam', 'i.disabled_by_user as disabledByUser', 'i.app_id as installedAppId'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  // A user's token outlives nothing: uninstalling deletes the install row, and with it the token's use.
  const installed = row?.kind === 'bot' || row?.installedAppId != null;
  if (!row || row.deactivated_at !== null || !installed) {
    throw new ApiError('InvalidToken', 'The token is unknown, revoked, or belongs to an uninstalled app.');
  }
  const { kind, appId, disabledByTeam, disabledByUser, installedAppId: _install, ...user } = row;
  if (disabledByTeam) {
    throw new ApiError('AppDisabled', 'A team admin has disabled this app for the whole team.', { disabledBy: 'team' });
  }
  if (disabledByUser) {
    throw new ApiError('AppDisabled', 'You have disabled this app; enable it again to use its token.', { disabledBy: 'user' });
  }
  return { kind, appId, tokenHash, user };
}
