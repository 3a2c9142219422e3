import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * The search index (docs/search.md, store/search/), kept in step with `messages` by triggers, so that an
 * insert, an edit of the text and a delete change it in the same transaction, whoever writes the row.
 *
 * - SQLite: an FTS5 table `message_search` (unicode61, diacritics removed) whose rowid is the id of the
 *   message's row in `message_search_rows`; a message's own rowid is not stable across VACUUM, a row of
 *   ours with an INTEGER PRIMARY KEY is.
 * - PostgreSQL: `message_search` holds each message's `tsvector` in its team's language
 *   (`teams.search_language`, `simple` by default) and its folded text (lower case, accents removed) for
 *   the trigram index that finds words inside longer ones. pg_trgm and unaccent are created in `public`
 *   (both are trusted extensions), whatever the search path, so that a schema dropped with CASCADE never
 *   takes them along; the functions are named through the schema they are in.
 * - `search_reindex`: where `aviary search reindex` stands, so that it resumes (messages from before this
 *   migration are indexed by it, not here: an upgrade must not wait on a whole history).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('search_language', 'text', (c) => c.notNull().defaultTo('simple')).execute();
  await db.schema.createTable('search_reindex').addColumn('position', 'text', (c) => c.notNull()).execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteIndex(db);
  else await postgresIndex(db);
}

async function sqliteIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create table message_search_rows (id integer primary key, uid text not null unique)`.execute(db);
  await sql`create virtual table message_search using fts5(text, tokenize = "unicode61 remove_diacritics 2")`.execute(db);
  const unindex = sql.raw(`delete from message_search where rowid = (select id from message_search_rows where uid = old.uid);`);
  await sql`create trigger message_search_insert after insert on messages begin
    insert into message_search_rows (uid) values (new.uid);
    insert into message_search (rowid, text) values (last_insert_rowid(), new.text);
  end`.execute(db);
  await sql`create trigger message_search_update after update of text on messages begin
    ${unindex}
    insert or ignore into message_search_rows (uid) values (new.uid);
    insert into message_search (rowid, text) select id, new.text from message_search_rows where uid = new.uid;
  end`.execute(db);
  await sql`create trigger message_search_delete after delete on messages begin
    ${unindex}
    delete from message_search_rows where uid = old.uid;
  end`.execute(db);
}

async function extensionSchema(db: Kysely<unknown>, name: string): Promise<string> {
  await sql.raw(`create extension if not exists ${name} with schema public`).execute(db);
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${name}`.execute(db);
  return `"${rows[0].schema.replaceAll('"', '""')}"`;
}

async function postgresIndex(db: Kysely<unknown>): Promise<void> {
  const trgm = await extensionSchema(db, 'pg_trgm');
  const unaccent = await extensionSchema(db, 'unaccent');
  await sql
    .raw(
      `create function search_fold(text) returns text language sql immutable strict parallel safe
       as $$ select lower(${unaccent}.unaccent('${unaccent}.unaccent'::regdictionary, $1)) $$`,
    )
    .execute(db);
  await sql`create table message_search (uid text primary key, document tsvector not null, folded text not null)`.execute(db);
  await sql`create index message_search_document on message_search using gin (document)`.execute(db);
  await sql.raw(`create index message_search_folded on message_search using gin (folded ${trgm}.gin_trgm_ops)`).execute(db);
  await sql`create function message_search_write() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        delete from message_search where uid = old.uid;
        return old;
      end if;
      insert into message_search (uid, document, folded)
      values (
        new.uid,
        to_tsvector(coalesce((select search_language from teams where id = new.team_id), 'simple')::regconfig, search_fold(new.text)),
        search_fold(new.text)
      )
      on conflict (uid) do update set document = excluded.document, folded = excluded.folded;
      return new;
    end $$`.execute(db);
  await sql`create trigger message_search_write after insert or delete or update of text on messages
    for each row execute function message_search_write()`.execute(db);
}
