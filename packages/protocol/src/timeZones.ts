/**
 * A person's time zone is an IANA zone (`Europe/Paris`); users.getInfo still answers its UTC offset at
 * the moment asked (`timezone`, as the specification fixes it), beside the zone itself (`timeZone`).
 * Pure functions of Intl, shared by the server and the web client.
 */
import { utcOffsetPattern } from './personFields.js';

/** Whether Intl knows `name` as a time zone (an IANA zone, or an alias of one such as `US/Eastern`). */
export function isTimeZone(name: string): boolean {
  if (name === '' || name.length > 64 || utcOffsetPattern.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone's UTC offset at `at` (epoch ms): `+05:30`, `-03:00`, `+00:00`; an offset is its own, anything else `+00:00`. */
export function offsetAt(zone: string, at: number): string {
  if (utcOffsetPattern.test(zone)) return zone;
  let name: string | undefined;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  } catch {
    return '+00:00';
  }
  return /^GMT([+-]\d{2}:\d{2})$/.exec(name ?? '')?.[1] ?? '+00:00';
}

/**
 * Zones for the offsets that are not whole hours, each the most populous zone that keeps the offset all
 * year (or, where none does, the one that has it as standard time).
 */
const zonesOfPartHours: Record<string, string> = {
  '-09:30': 'Pacific/Marquesas',
  '-03:30': 'America/St_Johns',
  '+03:30': 'Asia/Tehran',
  '+04:30': 'Asia/Kabul',
  '+05:30': 'Asia/Kolkata',
  '+05:45': 'Asia/Kathmandu',
  '+06:30': 'Asia/Yangon',
  '+08:45': 'Australia/Eucla',
  '+09:30': 'Australia/Darwin',
  '+10:30': 'Australia/Lord_Howe',
  '+12:45': 'Pacific/Chatham',
};

/**
 * A zone for a UTC offset such as a profile kept before zones (`+01:00`): `UTC` for `+00:00`, the fixed
 * `Etc/GMT-1` for `+01:00` (the Etc names count the other way), a zone that has a part-hour offset for
 * one, and the nearest whole hour for an offset no zone has.
 */
export function zoneOfOffset(offset: string): string {
  const partHour = zonesOfPartHours[offset];
  if (partHour !== undefined) return partHour;
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  const hours = Math.min(sign < 0 ? 12 : 14, Math.round(minutes / 60));
  if (hours === 0) return 'UTC';
  return `Etc/GMT${sign > 0 ? '-' : '+'}${hours}`;
}
