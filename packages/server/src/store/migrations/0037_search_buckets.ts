import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: `message_search` also holds each message's **bucket**, the first six characters of
 * its uid (a ULID: its time, to about four minutes), and the word index is on (chat, bucket, words). A
 * search walking a slice of the newest messages (core/search/searchPostgres.ts, docs/search.md "How a
 * search walks the index") asks the index for the candidates of the slice's buckets alone, where it
 * found every candidate in the history and read each one's row: a phrase of common words ("deploy to":
 * 16,000 messages with both words, 1,500 with the phrase) reads the rows of the newest few hundred. A
 * bucket is a term shared by the messages of a few minutes, so a send adds a message to an existing
 * term's list, the cheap kind of insert into a GIN index (a term of its own per message, such as the
 * uid, costs far more: BENCHMARKS.md, "Search").
 *
 * The table is built anew from the old one (its indexes after its rows), as 0035 did. The indexing
 * trigger is unchanged: the bucket is a generated column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  // The bucket is derived from the uid by PostgreSQL itself (a stored generated column): the trigger and
  // `aviary search reindex` write a row as before, and no writer can give it another bucket.
  await sql`create table message_search_buckets (uid text not null, chat_key text not null, bucket text not null generated always as (left(uid, 6)) stored, document tsvector not null, folded text not null)`.execute(db);
  await sql`insert into message_search_buckets (uid, chat_key, document, folded) select uid, chat_key, document, folded from message_search`.execute(db);
  const { rows } = await sql<{ definition: string }>`select indexdef as definition from pg_indexes
    where schemaname = current_schema() and tablename = 'message_search' and indexname = 'message_search_folded'`.execute(db);
  await sql`drop table message_search`.execute(db);
  await sql`alter table message_search_buckets rename to message_search`.execute(db);
  await sql`alter table message_search add constraint message_search_pkey primary key (uid)`.execute(db);
  await sql`create index message_search_chat_bucket_document on message_search using gin (chat_key, bucket, document)`.execute(db);
  // The trigram index as 0035 made it (its operator class named in the schema pg_trgm is in).
  await sql.raw(rows[0].definition).execute(db);
  await sql`analyze message_search`.execute(db);
}
