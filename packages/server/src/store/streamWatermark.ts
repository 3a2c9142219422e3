import { sql } from 'kysely';

/**
 * PostgreSQL: which transactions may still append to this schema's stream. Every transaction of the
 * store takes a shared advisory lock keyed by its schema together with its BEGIN (one round trip), before
 * it can have a transaction id. So a transaction seen holding an id without that lock never appends:
 * another database's, or a tool's (a migration by hand, a `drop database`, an idle session left in a
 * transaction), and readers need not wait for it.
 */
const LOCK_CLASS = 1098278241;

/**
 * The positions one transaction may take in one team's stream. An entry's position is its transaction's
 * id × this + its index among the transaction's entries of the team.
 */
export const POSITIONS_PER_TRANSACTION = 1024;
const SCHEMA_KEY = '(hashtext(current_schema()) & 2147483647)';
const TAKE_LOCK = `select pg_advisory_xact_lock_shared(${LOCK_CLASS}, ${SCHEMA_KEY})`;

/** What the store's BEGIN sends on PostgreSQL (several statements without parameters: one round trip). */
export const BEGIN_AS_STREAM_WRITER = `begin; ${TAKE_LOCK}`;
/** After a BEGIN with settings (an isolation level), the lock on its own. */
export const MARK_STREAM_WRITER = TAKE_LOCK;

/**
 * The first position a reader may not read yet, in the reading statement's own snapshot: that of the
 * oldest transaction still in flight that may append to this schema's stream, or of the first
 * transaction not yet started. A transaction id of the snapshot's in-flight list is passed over only
 * when the lock table shows its holder without the store's lock; one that ended meanwhile, or that the
 * lock table does not show, holds the position back. Every transaction older than it that may append has
 * ended, and every later one takes larger positions, so what lies below never changes again.
 *
 * Both questions are asked of ONE copy of the lock table (a materialized CTE): each read of `pg_locks`
 * copies it anew, and a writer that ends between two copies would show its id in the first and, its
 * advisory lock released, no store lock in the second: passed over while its entries are still invisible
 * to this snapshot, so the reader would go past them (stream/watermarkRace.test.ts).
 */
export const POSTGRES_READABLE_BELOW = sql<number>`(with locks as materialized (
    select pid, locktype, mode, granted, transactionid, classid, objid, objsubid from pg_locks)
  select coalesce(
  (select min(x::text::bigint) from pg_snapshot_xip(s.snap) x
    where x::text::bigint % 4294967296 not in (
      select t.transactionid::text::bigint from locks t
      where t.locktype = 'transactionid' and t.mode = 'ExclusiveLock' and t.granted and t.pid is not null
        and not exists (select 1 from locks a where a.pid = t.pid and a.locktype = 'advisory' and a.granted
          and a.classid = ${sql.lit(LOCK_CLASS)}::oid and a.objid = ${sql.raw(SCHEMA_KEY)}::oid and a.objsubid = 2))),
  pg_snapshot_xmax(s.snap)::text::bigint) * ${sql.lit(POSITIONS_PER_TRANSACTION)}
from (select pg_current_snapshot() as snap) s)`;
