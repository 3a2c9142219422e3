import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the search index moves into `messages` itself, and `message_search` (a second row a
 * message, with its key, written by a trigger after every insert) goes. A send no longer writes that
 * row, its primary key entry or its trigger's insert (BENCHMARKS.md, "Search").
 *
 * - `messages.search_words`: the message's `tsvector`, in its team's language (`teams.search_language`)
 *   when it was written, of its folded text; null for a message not indexed yet, which `aviary search
 *   reindex` indexes by setting it. A BEFORE trigger sets it for every new message and every edit of the
 *   text (the one lookup of the team that the old trigger made too). Kept in the row, not worked out
 *   from the text by the index alone: a phrase's order is checked on each candidate's words, which
 *   working them out again made several times dearer (a phrase's p99 from 39 to 76 ms on a million).
 * - The word index is on (chat, bucket, words) as 0037 made it, the bucket `left(uid, 6)`; the trigram
 *   index on `search_fold(text)`. Both are partial (`search_words is not null`), so that a message not
 *   indexed is in neither. An edit of the text, a move to another chat and a delete change both, as any
 *   write of an indexed column does. A search names these expressions exactly
 *   (core/search/searchPostgres.ts), so the planner uses them.
 * - The messages `message_search` held keep their words (each of those rows written once more: about a
 *   minute for a million messages, the table's space twice over until it is vacuumed); those it lacked
 *   (from before 0015, not reindexed yet) stay out. Building the two indexes reads every message once.
 * - Statistics of the bucket (PostgreSQL reads none of a partial index's expressions, and guessed every
 *   slice a third of the history), and no parallel plans on `messages` (below).
 *
 * SQLite keeps its FTS5 index (0015, 0029, 0034).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const trgm = `"${rows[0].schema.replaceAll('"', '""')}"`;

  await sql`alter table messages add column search_words tsvector`.execute(db);
  await sql`update messages m set search_words = s.document from message_search s where s.uid = m.uid`.execute(db);
  await sql`drop trigger message_search_write on messages`.execute(db);
  await sql`drop function message_search_write()`.execute(db);
  await sql`drop table message_search`.execute(db);
  await sql`create function message_search_words() returns trigger language plpgsql as $$
    begin
      new.search_words := to_tsvector(coalesce((select search_language from teams where id = new.team_id), 'simple')::regconfig, search_fold(new.text));
      return new;
    end $$`.execute(db);
  await sql`create trigger message_search_words before insert or update of text on messages
    for each row execute function message_search_words()`.execute(db);

  await sql`create index messages_search_words on messages using gin (chat_key, left(uid, 6), search_words) where search_words is not null`.execute(db);
  await sql
    .raw(`create index messages_search_folded on messages using gin (search_fold(text) ${trgm}.gin_trgm_ops) where search_words is not null`)
    .execute(db);
  await sql`create statistics messages_search_buckets_stats on (left(uid, 6)) from messages`.execute(db);
  // No parallel plans on `messages`: the planner, guessing a rare word's matches as thousands, thought a
  // parallel scan worth its workers, whose start took 100 ms where the scan took 1 (BENCHMARKS.md,
  // "Search"). Every query of the server on it reads few rows.
  await sql`alter table messages set (parallel_workers = 0)`.execute(db);
  await sql`analyze messages`.execute(db);
}
