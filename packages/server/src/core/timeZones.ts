import { utcOffsetPattern } from '@aviary/protocol';
import { invalidParameter } from '../errors.js';

/**
 * A time zone as a browser reports it (an IANA zone such as Europe/Paris, from
 * `Intl.DateTimeFormat().resolvedOptions().timeZone`) or a UTC offset, as the offset a person's profile
 * stores today: the zone's offset at `now`. People's profiles keep offsets until they keep zones.
 */
export function zoneOffset(field: string, value: string, now: number): string {
  if (utcOffsetPattern.test(value)) return value;
  let name: string | undefined;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: value, timeZoneName: 'longOffset' }).formatToParts(new Date(now)).find((part) => part.type === 'timeZoneName')?.value;
  } catch {
    // Not a zone: refused below.
  }
  if (name === undefined) throw invalidParameter(field, `${field} must be an IANA time zone such as Europe/Paris, or a UTC offset such as +01:00; got ${JSON.stringify(value.slice(0, 64))}.`);
  const match = /^GMT([+-]\d{2}:\d{2})$/.exec(name);
  return match ? match[1] : '+00:00';
}
