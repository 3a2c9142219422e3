/**
 * The time zones a person picks from, and what the profile keeps of one: its UTC offset now (`+05:30`),
 * since a person's timezone is an offset (docs/reference/methods.md, users.getInfo).
 */
export interface ZoneChoice {
  zone: string;
  offset: string;
}

/** A zone's UTC offset at `at`, as the profile stores it: `+05:30`, `-03:00`, `+00:00`. */
export function zoneOffset(zone: string, at: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT([+-]\d{2}):(\d{2})$/.exec(name ?? '');
  return match ? `${match[1]}:${match[2]}` : '+00:00';
}

/** Every zone the browser knows, by name, each with its offset at `at`. */
export function zoneChoices(at: number): ZoneChoice[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return zones.map((zone) => ({ zone, offset: zoneOffset(zone, at) }));
}

/**
 * The zone to show as chosen for a person whose offset is `offset`: the browser's own zone when it has
 * that offset, else the first zone that has it, else none (the page then offers the offset as it is).
 */
export function zoneForOffset(choices: readonly ZoneChoice[], offset: string): string | undefined {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (choices.some((choice) => choice.zone === own && choice.offset === offset)) return own;
  return choices.find((choice) => choice.offset === offset)?.zone;
}
