import type { DoNotDisturbSchedule, NotificationLevel, NotificationSettings } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { runChange, type Effects } from '../effects/effects.js';
import { resolveReadableChat } from '../policies/chat.js';
import { notificationsChanged } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { notificationSettingsOf } from '../queries/notificationSettings.js';

/** notifications.setChatLevel: `mentions` is the default, so it removes the row; the person's streams hear of it. */
export async function setChatLevel(ctx: CommandContext, user: UsersTable, { chat, level }: { chat: string; level: NotificationLevel }): Promise<NotificationSettings> {
  return runChange(ctx, async (tx, effects) => {
    const chatKey = await resolveReadableChat(tx, user, chat);
    const now = ctx.now();
    if (level === 'mentions') {
      await tx.deleteFrom('notification_levels').where('user_id', '=', user.id).where('chat_key', '=', chatKey).execute();
    } else {
      await tx
        .insertInto('notification_levels')
        .values({ user_id: user.id, chat_key: chatKey, chat, level, updated_at: now })
        .onConflict((c) => c.columns(['user_id', 'chat_key']).doUpdateSet({ level, chat, updated_at: now }))
        .execute();
    }
    return announce(tx, effects, user, now);
  });
}

/** notifications.setDoNotDisturb: what is given changes (a schedule, or null; a pause of N hours, 0 ending it). */
export async function setDoNotDisturb(
  ctx: CommandContext,
  user: UsersTable,
  given: { schedule?: DoNotDisturbSchedule | null | '' | undefined; pauseHours?: number | undefined },
): Promise<NotificationSettings> {
  // A clearable parameter: null and "" both remove the schedule.
  const input = { ...given, schedule: given.schedule === '' ? null : given.schedule };
  if (input.schedule === undefined && input.pauseHours === undefined) {
    throw new ApiError('MissingParameter', 'Give schedule (or null to remove it), pauseHours (0 ends a pause), or both.', { parameter: 'schedule' });
  }
  if (input.schedule) checkSchedule(input.schedule);
  return runChange(ctx, async (tx, effects) => {
    const now = ctx.now();
    const change = {
      ...(input.schedule !== undefined ? { schedule: input.schedule === null ? null : JSON.stringify({ ...input.schedule, days: [...input.schedule.days].sort() }) } : {}),
      ...(input.pauseHours !== undefined ? { paused_until: input.pauseHours === 0 ? null : now + input.pauseHours * 3_600_000 } : {}),
      updated_at: now,
    };
    await tx
      .insertInto('notification_dnd')
      .values({ user_id: user.id, schedule: null, paused_until: null, ...change })
      .onConflict((c) => c.column('user_id').doUpdateSet(change))
      .execute();
    return announce(tx, effects, user, now);
  });
}

function checkSchedule(schedule: DoNotDisturbSchedule): void {
  if (schedule.start === schedule.end) {
    throw new ApiError('InvalidParameter', `schedule.start and schedule.end are both ${schedule.start}: give a span of time (end before start runs past midnight).`, { parameter: 'schedule.end' });
  }
}

async function announce(tx: Tx, effects: Effects, user: UsersTable, now: number): Promise<NotificationSettings> {
  const settings = await notificationSettingsOf(tx, user);
  await recordStreamEntries(tx, effects, user.team_id, [notificationsChanged(user.id, settings)], now);
  return settings;
}
