import { isTimeZone, utcOffsetPattern, zoneOfOffset } from '@aviary/protocol';
import { invalidParameter } from '../errors.js';

/**
 * A person's time zone as given (users.updateProfile, invitations.accept, the CLI, an import): an IANA
 * zone Intl knows, such as the browser reports (`Intl.DateTimeFormat().resolvedOptions().timeZone`),
 * kept as given; or a UTC offset, as profiles kept before zones, kept as a zone that has it
 * (`+01:00` → `Etc/GMT-1`). Anything else is refused naming `field`.
 */
export function checkTimeZone(field: string, value: unknown): string {
  if (typeof value === 'string' && utcOffsetPattern.test(value)) return zoneOfOffset(value);
  if (typeof value === 'string' && isTimeZone(value)) return value;
  const got = JSON.stringify(typeof value === 'string' ? value.slice(0, 64) : value) ?? String(value);
  throw invalidParameter(field, `${field} must be an IANA time zone such as Europe/Paris (or a UTC offset such as +01:00); got ${got}.`);
}

/** A zone from another system's record (an export of an older Aviary, Slack's `tz`/`tz_offset`): as checkTimeZone keeps it, UTC for anything else. */
export function importedTimeZone(zone: unknown, offset?: string): string {
  if (typeof zone === 'string' && (utcOffsetPattern.test(zone) || isTimeZone(zone))) return checkTimeZone('timezone', zone);
  return offset !== undefined && utcOffsetPattern.test(offset) ? zoneOfOffset(offset) : 'UTC';
}
