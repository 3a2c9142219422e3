import { sql, type Kysely } from 'kysely';

/**
 * Time zones as IANA zones (issue 25): `users.timezone` held a UTC offset (`+01:00`), wrong across
 * daylight-saving changes; it now holds a zone (`Europe/Paris`). An offset kept so far cannot say which
 * zone it was, so it becomes a zone that has it all year: `UTC` for `+00:00`, the fixed `Etc/GMT-1` for
 * `+01:00` (the Etc names count the other way), for a part-hour offset a zone that has it, and for an
 * offset no zone has the nearest whole hour. People pick their real zone in the profile dialog.
 * The mapping is written out here, not imported, so that this migration does what it did when released.
 */
const partHours: Record<string, string> = {
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

function zoneOf(offset: string): string {
  const partHour = partHours[offset];
  if (partHour !== undefined) return partHour;
  const sign = offset.startsWith('-') ? -1 : 1;
  const hours = Math.min(sign < 0 ? 12 : 14, Math.round((Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) / 60));
  return hours === 0 ? 'UTC' : `Etc/GMT${sign > 0 ? '-' : '+'}${hours}`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ timezone: string }>`select distinct timezone from users`.execute(db);
  for (const { timezone } of rows) {
    if (!/^[+-]\d{2}:\d{2}$/.test(timezone)) continue;
    await sql`update users set timezone = ${zoneOf(timezone)} where timezone = ${timezone}`.execute(db);
  }
}
