// Imports name their .js: the root project's tests import this module, with Node's resolution.
import { offsetAt } from '@aviary/protocol';

/** A time on the person's clock: the calendar day (`2026-03-14`) and the time of day (`09:00`). */
export interface WallTime {
  date: string;
  time: string;
}

const offsetMs = (offset: string): number => {
  const [, sign, hours, minutes] = /^([+-])(\d{2}):(\d{2})$/.exec(offset) ?? ['', '+', '00', '00'];
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
};

/** The wall time at `at` in `zone` (an IANA zone, the profile's). */
export function wallTimeAt(at: number, zone: string): WallTime {
  const shifted = new Date(at + offsetMs(offsetAt(zone, at))).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 16) };
}

/**
 * The moment a wall time in `zone` names, read at its own offset (so either side of a daylight-saving
 * change is right); undefined for a date or time that is not one. A time skipped by a change forward
 * (02:30 on the night clocks go from 02:00 to 03:00) is read at the offset before it, an hour later.
 */
export function momentOf(wall: WallTime, zone: string): number | undefined {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(wall.date);
  const time = /^(\d{2}):(\d{2})$/.exec(wall.time);
  if (!date || !time) return undefined;
  const asUtc = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(time[1]), Number(time[2]));
  if (Number.isNaN(asUtc) || wallTimeAt(asUtc, 'UTC').date !== wall.date) return undefined;
  const first = asUtc - offsetMs(offsetAt(zone, asUtc));
  return asUtc - offsetMs(offsetAt(zone, first));
}

const DAY_MS = 86_400_000;

/**
 * The quick choices of "Schedule message": in an hour, tomorrow at 9:00, next Monday at 9:00 (on the
 * person's clock); on a Sunday, tomorrow is that Monday, offered once.
 */
export function scheduleChoices(now: number, zone: string): Array<{ label: string; at: number }> {
  const today = wallTimeAt(now, zone).date;
  const dayAfter = (days: number) => wallTimeAt(Date.parse(`${today}T12:00:00Z`) + days * DAY_MS, 'UTC').date;
  // 0 is Sunday: days until the next Monday, a whole week on a Monday.
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  const untilMonday = ((8 - weekday) % 7) || 7;
  const at = (date: string) => momentOf({ date, time: '09:00' }, zone)!;
  return [
    { label: 'In 1 hour', at: now + 3_600_000 },
    { label: 'Tomorrow at 9:00', at: at(dayAfter(1)) },
    ...(untilMonday > 1 ? [{ label: 'Next Monday at 9:00', at: at(dayAfter(untilMonday)) }] : []),
  ];
}
