import { sql } from 'kysely';
import type { Db } from '../../store/store.js';

/** What audit.list and `aviary audit export` filter on; all optional. */
export interface AuditFilter {
  /** Actions starting with this. */
  action?: string;
  actorUserId?: string;
  targetId?: string;
  /** At or after (ms). */
  since?: number;
  /** Before (ms). */
  until?: number;
}

export interface AuditPage {
  entries: AuditListEntry[];
  nextCursor?: string;
}

export interface AuditListEntry {
  id: string;
  at: number;
  actorUserId: string | null;
  actorName: string | null;
  actorAppId: string | null;
  action: string;
  targetKind: string;
  targetId: string;
  address: string | null;
  details: Record<string, unknown>;
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likePrefix = (prefix: string): string => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of a team's audit log, newest first, by keyset on (at, id): the cursor is the last row's
 * `at:id`, so a page never repeats or skips a row however many are appended meanwhile.
 */
export async function listAudit(db: Db, teamId: string, filter: AuditFilter, page: { cursor?: string; limit: number }): Promise<AuditPage> {
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .selectAll('a')
    .select(['u.first_name', 'u.last_name'])
    .where('a.team_id', '=', teamId);
  // Case-insensitive on both dialects (SQLite's LIKE is, PostgreSQL's is not): lower() on each side.
  if (filter.action !== undefined) query = query.where(sql<boolean>`lower(a.action) like lower(${likePrefix(filter.action)}) escape '\\'`);
  if (filter.actorUserId !== undefined) query = query.where('a.actor_user_id', '=', filter.actorUserId);
  if (filter.targetId !== undefined) query = query.where('a.target_id', '=', filter.targetId);
  if (filter.since !== undefined) query = query.where('a.at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('a.at', '<', filter.until);
  if (page.cursor !== undefined) {
    const [at, id] = [Number(page.cursor.split(':')[0]), page.cursor.split(':')[1]];
    query = query.where((eb) => eb.or([eb('a.at', '<', at), eb.and([eb('a.at', '=', at), eb('a.id', '<', id)])]));
  }
  const rows = await query.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(page.limit + 1).execute();
  const entries = rows.slice(0, page.limit).map(
    (row): AuditListEntry => ({
      id: row.id,
      at: Number(row.at),
      actorUserId: row.actor_user_id,
      actorName: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
      actorAppId: row.actor_app_id,
      action: row.action,
      targetKind: row.target_kind,
      targetId: row.target_id,
      address: row.address,
      details: JSON.parse(row.details) as Record<string, unknown>,
    }),
  );
  const last = entries.at(-1);
  return rows.length > page.limit && last ? { entries, nextCursor: `${last.at}:${last.id}` } : { entries };
}
