import type { DoNotDisturbSchedule, NotificationSettings } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/** A person's notification settings: chat levels apart from the default, do-not-disturb, their time zone. */
export async function notificationSettingsOf(db: Db, user: Pick<UsersTable, 'id' | 'timezone'>): Promise<NotificationSettings> {
  const [levels, dnd] = await Promise.all([
    db.selectFrom('notification_levels').select(['chat', 'level']).where('user_id', '=', user.id).orderBy('chat').execute(),
    db.selectFrom('notification_dnd').select(['schedule', 'paused_until']).where('user_id', '=', user.id).executeTakeFirst(),
  ]);
  return {
    chats: levels.map(({ chat, level }) => ({ chat, level }) as NotificationSettings['chats'][number]),
    schedule: dnd?.schedule ? (JSON.parse(dnd.schedule) as DoNotDisturbSchedule) : null,
    pausedUntil: dnd?.paused_until === null || dnd?.paused_until === undefined ? null : Number(dnd.paused_until),
    timeZone: user.timezone,
  };
}
