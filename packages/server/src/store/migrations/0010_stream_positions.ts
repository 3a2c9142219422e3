import { sql, type Kysely } from 'kysely';

/**
 * Stream positions without a team-wide lock (docs/ARCHITECTURE.md, "The stream").
 *
 * - On PostgreSQL a change no longer increments `teams.stream_seq`: an entry's position is its
 *   transaction's id (`pg_current_xact_id()`) × 1024 plus its index in the transaction, and readers stop
 *   below the oldest transaction still in flight (store/rows/streamEntries.ts). `stream_seq` keeps the
 *   last position taken before this migration; SQLite, with its one writer, keeps counting in it.
 * - `teams.stream_pruned`: every position up to it may have been pruned, so a client resuming from an
 *   older cursor must resync. Positions are no longer consecutive on PostgreSQL, so the oldest kept
 *   position cannot tell that any more. It starts where the oldest kept entry says the old rule drew the
 *   line: one below it, or the team's last position when none is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('stream_pruned', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update teams set stream_pruned = coalesce((select min(seq) - 1 from stream_entries e where e.team_id = teams.id), stream_seq)`.execute(db);
}
