import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * The real-time stream (docs/reference/stream.md) and unread counts.
 *
 * - `teams.stream_seq`: the team's last stream position. A change takes the next ones by incrementing it
 *   in its own transaction; on PostgreSQL the row lock holds until commit, so a team's positions commit
 *   in order and a reader never sees position N+1 before N. On SQLite a trigger moves it up to each new
 *   entry's position, so that appending is one statement there too (store/rows/streamEntries.ts).
 * - `stream_entries`: what each position holds (a frame's type and payload, JSON) and who may receive it
 *   (`audience`, JSON). Kept for a retention period, then pruned; replayed to clients that resume.
 * - `stream_tickets`: short-lived, single-use tickets to open the stream without the cookie, stored
 *   hashed so that any server process can accept one; each remembers the session that asked for it.
 * - `chat_reads`: how far each person has read each chat (a message uid).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('stream_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('stream_entries')
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stream_entries_pk', ['team_id', 'seq'])
    .execute();
  // No index on created_at: it would cost every message a third B-tree write, for an hourly question
  // (which entries are past the retention) that a scan on the read connection answers.
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create trigger stream_entries_position after insert on stream_entries begin update teams set stream_seq = new.seq where id = new.team_id; end`.execute(db);
  }

  await db.schema
    .createTable('stream_tickets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_tickets_expiry').on('stream_tickets').column('expires_at').execute();

  await db.schema
    .createTable('chat_reads')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('chat_key', 'text', (c) => c.notNull())
    .addColumn('read_uid', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_reads_pk', ['user_id', 'chat_key'])
    .execute();
}
