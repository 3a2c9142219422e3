/**
 * Mentions and notifications (issue 23): the broadcast words of a channel message, a person's
 * notification levels and do-not-disturb, and the one rule that says whether do-not-disturb holds now,
 * shared by the server (Web Push) and the web client (browser notifications).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ChatId } from './ids.js';
import { closedObject, oneOf } from './params.js';

/** `@channel` notifies every member of a channel; `@here` those with a stream open. */
export const broadcastWords = ['channel', 'here'] as const;
export type BroadcastWord = (typeof broadcastWords)[number];

const BROADCAST = /(?:^|[\s(>])@(channel|here)(?![\w-])/;

/** The broadcast a message's text makes in a channel (`@channel` first when it has both), if any. */
export function broadcastOf(text: string): BroadcastWord | undefined {
  if (/(?:^|[\s(>])@channel(?![\w-])/.test(text)) return 'channel';
  return BROADCAST.test(text) ? 'here' : undefined;
}

/** What a chat notifies the person of: every message, only what mentions them (the default), or nothing. */
export const notificationLevels = ['all', 'mentions', 'mute'] as const;
export type NotificationLevel = (typeof notificationLevels)[number];

/** A time of day, HH:MM on a 24-hour clock. */
const TimeOfDay = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'a time of day, HH:MM (24-hour clock)' });

/** A weekly quiet time in the person's time zone: on `days` (0 Sunday … 6 Saturday), from `start` to `end` (the next day when end ≤ start). */
export const DoNotDisturbSchedule = closedObject({
  days: Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'the days it starts on: 0 Sunday … 6 Saturday' }),
  start: TimeOfDay,
  end: TimeOfDay,
});
export type DoNotDisturbSchedule = Static<typeof DoNotDisturbSchedule>;

export const ChatNotificationLevel = closedObject({ chat: ChatId, level: oneOf(notificationLevels) });

/** A person's notification settings, as notifications.getSettings answers and the notifications.changed frame carries. */
export const NotificationSettings = closedObject({
  /** The chats whose level is not the default (`mentions`). */
  chats: Type.Array(ChatNotificationLevel),
  schedule: Type.Union([DoNotDisturbSchedule, Type.Null()], { description: 'the weekly do-not-disturb, or null' }),
  pausedUntil: Type.Union([Type.Integer(), Type.Null()], { description: 'notifications are paused until then (milliseconds since the epoch), or null' }),
  timeZone: Type.String({ description: 'the person’s time zone (their profile’s), in which the schedule is read' }),
});
export type NotificationSettings = Static<typeof NotificationSettings>;

/** Minutes since midnight of HH:MM. */
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The weekday (0 Sunday) and minute of the day at `now` in `timeZone` (UTC when the zone is unknown). */
export function localClock(now: number, timeZone: string): { day: number; minute: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(part('weekday'));
  return { day, minute: (Number(part('hour')) % 24) * 60 + Number(part('minute')) };
}

/** Whether do-not-disturb holds at `now`: paused, or inside the schedule (a span past midnight belongs to the day it starts on). */
export function doNotDisturbActive(settings: Pick<NotificationSettings, 'schedule' | 'pausedUntil' | 'timeZone'>, now: number): boolean {
  if (settings.pausedUntil !== null && now < settings.pausedUntil) return true;
  const schedule = settings.schedule;
  if (schedule === null) return false;
  const { day, minute } = localClock(now, settings.timeZone);
  const start = minutesOf(schedule.start);
  const end = minutesOf(schedule.end);
  if (start < end) return schedule.days.includes(day) && minute >= start && minute < end;
  // Overnight (or all day when start = end): the evening of a listed day, or the morning after one.
  return (schedule.days.includes(day) && minute >= start) || (schedule.days.includes((day + 6) % 7) && minute < end);
}

/** The level of a chat in some settings: `mentions` unless set. */
export const levelOf = (settings: Pick<NotificationSettings, 'chats'>, chat: string): NotificationLevel =>
  settings.chats.find((entry) => entry.chat === chat)?.level ?? 'mentions';
