/**
 * Times in the person's own timezone. A person's timezone is a UTC offset (`+05:30`), not a zone name,
 * so a timestamp is shifted by the offset and then formatted as UTC.
 */
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

export function offsetMinutes(timezone: string): number {
  const match = OFFSET.exec(timezone);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

const shifted = (timestamp: number, timezone: string) => new Date(timestamp + offsetMinutes(timezone) * 60_000);

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });

export const formatTime = (timestamp: number, timezone: string) => timeFormat.format(shifted(timestamp, timezone));
export const formatFullTime = (timestamp: number, timezone: string) => `${fullFormat.format(shifted(timestamp, timezone))} (UTC${timezone})`;

/** The calendar day a timestamp falls on for the person: `2026-03-14`. */
export const dayKey = (timestamp: number, timezone: string) => shifted(timestamp, timezone).toISOString().slice(0, 10);

export function dayLabel(timestamp: number, timezone: string, now: number): string {
  const day = dayKey(timestamp, timezone);
  if (day === dayKey(now, timezone)) return 'Today';
  if (day === dayKey(now - 86_400_000, timezone)) return 'Yesterday';
  return dayFormat.format(shifted(timestamp, timezone));
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
