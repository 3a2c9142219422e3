import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: `message_search` also holds each message's chat, and its word index is on (chat,
 * words), so that a search in one chat (`in:#channel`, `in:@person`) asks the index for that chat's
 * matches alone instead of the team's (core/search/searchPostgres.ts, docs/search.md "How a search
 * walks the index"). A GIN index on several columns also answers a condition on any one of them, so
 * it replaces the index on the words alone; btree_gin gives GIN the text column's `=`. It is a trusted
 * extension, created in `public` as 0015 creates its own.
 *
 * The table is built anew from the old one joined to `messages` (its indexes after its rows, which
 * costs far less than updating every row under both GIN indexes: seconds for a million messages); the
 * trigger's function is replaced to write the chat, and the trigger follows a change of a message's
 * chat as it does of its text.
 *
 * SQLite filters FTS5's matches by chat as it walks them (core/search/searchSqlite.ts), and needs nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create extension if not exists btree_gin with schema public`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const trgm = `"${rows[0].schema.replaceAll('"', '""')}"`;
  await sql`create table message_search_by_chat (uid text not null, chat_key text not null, document tsvector not null, folded text not null)`.execute(db);
  await sql`insert into message_search_by_chat (uid, chat_key, document, folded)
    select s.uid, m.chat_key, s.document, s.folded from message_search s join messages m on m.uid = s.uid`.execute(db);
  await sql`drop table message_search`.execute(db);
  await sql`alter table message_search_by_chat rename to message_search`.execute(db);
  await sql`alter table message_search add constraint message_search_pkey primary key (uid)`.execute(db);
  await sql`create index message_search_chat_document on message_search using gin (chat_key, document)`.execute(db);
  await sql.raw(`create index message_search_folded on message_search using gin (folded ${trgm}.gin_trgm_ops)`).execute(db);
  // A new table has no statistics until autovacuum reads it: without them the planner guesses its plans.
  await sql`analyze message_search`.execute(db);
  await sql`create or replace function message_search_write() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        delete from message_search where uid = old.uid;
        return old;
      end if;
      insert into message_search (uid, chat_key, document, folded)
      values (
        new.uid,
        new.chat_key,
        to_tsvector(coalesce((select search_language from teams where id = new.team_id), 'simple')::regconfig, search_fold(new.text)),
        search_fold(new.text)
      )
      on conflict (uid) do update set chat_key = excluded.chat_key, document = excluded.document, folded = excluded.folded;
      return new;
    end $$`.execute(db);
  await sql`drop trigger message_search_write on messages`.execute(db);
  await sql`create trigger message_search_write after insert or delete or update of text, chat_key on messages
    for each row execute function message_search_write()`.execute(db);
}
