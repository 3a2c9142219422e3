import { offsetAt } from '@aviary/protocol';

/** A time zone a person picks from: its IANA name and its UTC offset now (`+05:30`), to show beside it. */
export interface ZoneChoice {
  zone: string;
  offset: string;
}

/**
 * Every zone the browser knows, by name, each with its offset at `at`; the person's own zone first
 * when the browser does not list it (a fixed `Etc/GMT-1` kept from an offset, an alias).
 */
export function zoneChoices(at: number, own: string): ZoneChoice[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return (zones.includes(own) ? zones : [own, ...zones]).map((zone) => ({ zone, offset: offsetAt(zone, at) }));
}

/**
 * How a zone is named to people: `America/New York`; a fixed `Etc/GMT-1` (kept from an offset) as
 * `UTC+01:00 (fixed)`, since its name counts the other way.
 */
export const zoneLabel = (zone: string): string => (zone.startsWith('Etc/') || zone === 'UTC' ? fixedLabel(zone) : zone.replaceAll('_', ' '));

const fixedLabel = (zone: string): string => (zone === 'UTC' || zone === 'Etc/UTC' ? 'UTC' : `UTC${offsetAt(zone, 0)} (fixed)`);
