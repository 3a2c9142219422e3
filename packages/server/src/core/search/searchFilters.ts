import { offsetAt, type SearchQuery } from '@aviary/protocol';
import { sql } from 'kysely';
import { invalidParameter } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { directChatKey } from '../../store/rows/messages.js';

/** A query's filters as the store reads them: names made ids, days made times in the searcher's zone. */
export interface ResolvedFilters {
  /** Only these chats (in:), when set. */
  chatKeys?: string[];
  /** Only from these people (from:), when set. */
  fromIds?: string[];
  /** timestamp >= since and < until (milliseconds), when set. */
  since?: number;
  until?: number;
  hasLink: boolean;
  hasFile: boolean;
}

/** Minutes east of UTC of an offset such as +01:00 or -05:30. */
function offsetMinutes(offset: string): number {
  const parts = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (!parts) return 0;
  return (parts[1] === '-' ? -1 : 1) * (Number(parts[2]) * 60 + Number(parts[3]));
}

/**
 * When the day YYYY-MM-DD begins in the IANA zone `timeZone` (users.timezone), in milliseconds since
 * the epoch: the zone's offset is read at that day's UTC midnight, then again at the first guess, so a
 * day that starts just after a daylight-saving change starts at its own offset.
 */
export function dayStart(day: string, timeZone: string): number {
  const [year, month, date] = day.split('-').map(Number);
  const midnight = Date.UTC(year, month - 1, date);
  const guess = midnight - offsetMinutes(offsetAt(timeZone, midnight)) * 60_000;
  return midnight - offsetMinutes(offsetAt(timeZone, guess)) * 60_000;
}

/** The day after YYYY-MM-DD, as YYYY-MM-DD: days are 23, 24 or 25 hours long in a zone with summer time. */
function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

const problem = (description: string) => invalidParameter('query', description);

/**
 * Teammates (people and bots) a query names as `@name`: the email's local part, else the first name or
 * `first.last`, compared without regard to (ASCII) case. docs/search.md states the rule.
 */
async function teammatesNamed(db: Db, teamId: string, name: string): Promise<string[]> {
  const lowered = name.toLowerCase();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name'])
    .where('team_id', '=', teamId)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['first_name']), '=', lowered),
        eb(eb.fn('substr', [eb.fn('lower', ['email']), eb.val(1), eb.val(lowered.length + 1)]), '=', `${lowered}@`),
        eb(sql<string>`lower(first_name || '.' || last_name)`, '=', lowered),
      ]),
    )
    .execute();
  const byEmail = rows.filter((row) => row.email?.toLowerCase().startsWith(`${lowered}@`));
  return (byEmail.length > 0 ? byEmail : rows).map((row) => row.id);
}

async function peopleNamed(db: Db, teamId: string, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const found = await teammatesNamed(db, teamId, name);
    if (found.length === 0) throw problem(`No one in your team is called @${name}: use the part of their email before the @, or their first name.`);
    ids.push(...found);
  }
  return [...new Set(ids)];
}

/** Channels named by in:#name that the reader can see (public ones, or private ones they are in). */
async function channelsNamed(db: Db, reader: UsersTable, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const rows = await db
      .selectFrom('channels as c')
      .leftJoin('channel_members as m', (join) => join.onRef('m.channel_id', '=', 'c.id').on('m.user_id', '=', reader.id))
      .select('c.id')
      .where('c.team_id', '=', reader.team_id)
      .where((eb) => eb(eb.fn('lower', ['c.name']), '=', name.toLowerCase()))
      .where((eb) => eb.or([eb('c.type', '=', 'public'), eb('m.user_id', 'is not', null)]))
      .execute();
    if (rows.length === 0) throw problem(`There is no channel #${name} that you can see.`);
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

export async function resolveFilters(db: Db, reader: UsersTable, query: SearchQuery): Promise<ResolvedFilters> {
  const filters: ResolvedFilters = { hasLink: query.has.includes('link'), hasFile: query.has.includes('file') };
  if (query.inChannels.length + query.inPeople.length > 0) {
    const people = query.inPeople.length > 0 ? await peopleNamed(db, reader.team_id, query.inPeople) : [];
    filters.chatKeys = [...(await channelsNamed(db, reader, query.inChannels)), ...people.map((id) => directChatKey(reader.id, id))];
  }
  if (query.from.length > 0) filters.fromIds = await peopleNamed(db, reader.team_id, query.from);
  const bounds: Array<[number | undefined, number | undefined]> = [
    [undefined, query.before === undefined ? undefined : dayStart(query.before, reader.timezone)],
    [query.after === undefined ? undefined : dayStart(nextDay(query.after), reader.timezone), undefined],
    query.on === undefined ? [undefined, undefined] : [dayStart(query.on, reader.timezone), dayStart(nextDay(query.on), reader.timezone)],
  ];
  for (const [since, until] of bounds) {
    if (since !== undefined) filters.since = Math.max(filters.since ?? since, since);
    if (until !== undefined) filters.until = Math.min(filters.until ?? until, until);
  }
  return filters;
}
