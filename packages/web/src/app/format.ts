import { zoneLabel } from './timeZones.js';

/**
 * Times in the person's own time zone, an IANA zone (`Europe/Paris`, the profile's `timeZone`): each
 * time is read at its own offset, so times on either side of a daylight-saving change are both right.
 */
const formats = new Map<string, { time: Intl.DateTimeFormat; day: Intl.DateTimeFormat; full: Intl.DateTimeFormat; short: Intl.DateTimeFormat; key: Intl.DateTimeFormat }>();

function formatsOf(timeZone: string) {
  let found = formats.get(timeZone);
  if (!found) {
    let zone = timeZone;
    try {
      new Intl.DateTimeFormat(undefined, { timeZone: zone });
    } catch {
      zone = 'UTC';
    }
    found = {
      time: new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: zone }),
      day: new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: zone }),
      full: new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: zone }),
      short: new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: zone }),
      key: new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone }),
    };
    formats.set(timeZone, found);
  }
  return found;
}

export const formatTime = (timestamp: number, timeZone: string) => formatsOf(timeZone).time.format(timestamp);
export const formatFullTime = (timestamp: number, timeZone: string) => `${formatsOf(timeZone).full.format(timestamp)} (${zoneLabel(timeZone)})`;
/** A day and time in a few characters: `Mon, Nov 30, 09:00`. */
export const formatShortTime = (timestamp: number, timeZone: string) => formatsOf(timeZone).short.format(timestamp);

/** The calendar day a timestamp falls on for the person: `2026-03-14`. */
export const dayKey = (timestamp: number, timeZone: string) => formatsOf(timeZone).key.format(timestamp);

export function dayLabel(timestamp: number, timeZone: string, now: number): string {
  const day = dayKey(timestamp, timeZone);
  if (day === dayKey(now, timeZone)) return 'Today';
  if (day === dayKey(now - 86_400_000, timeZone)) return 'Yesterday';
  return formatsOf(timeZone).day.format(timestamp);
}

export const fullName = (person: { firstName: string; lastName: string }) => `${person.firstName} ${person.lastName}`.trim();

export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase());
  return letters.join('') || '?';
}
