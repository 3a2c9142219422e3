import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { appDisabledBy, appDisabledError, appUseRefusal } from './apps.js';

/**
 * The sender of a message posted later on its behalf (a scheduled message, an incoming webhook's post),
 * as the method's door would have checked it then: an active user, and through an app only while that
 * app may still be used (a bot: the team has not disabled the app; a person: installed and enabled).
 * Where it may post is chat.sendMessage's own check, in the send's transaction.
 */
export async function senderInStanding(db: Db, userId: string, appId: string | null): Promise<UsersTable> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user || user.deactivated_at !== null) throw new ApiError('PermissionDenied', 'The sender’s account is deactivated.');
  if (appId === null) return user;
  const use = await db
    .selectFrom('apps as a')
    .leftJoin('installs as i', (join) => join.onRef('i.app_id', '=', 'a.id').on('i.user_id', '=', user.id))
    .select(['a.disabled_by_team as disabledByTeam', 'i.disabled_by_user as disabledByUser', 'i.app_id as installedAppId'])
    .where('a.id', '=', appId)
    .executeTakeFirst();
  if (!use) throw new ApiError('PermissionDenied', 'The app it was sent through no longer exists.');
  const standing = { disabledByTeam: use.disabledByTeam, installed: use.installedAppId !== null, disabledByUser: use.disabledByUser };
  const refusal = user.bot_app_id === appId ? appDisabledBy(standing) : appUseRefusal(standing);
  if (refusal === 'notInstalled') throw new ApiError('PermissionDenied', 'The sender has uninstalled the app it was sent through.');
  if (refusal) throw appDisabledError(refusal, 'the app', 'send through it');
  return user;
}
