import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the search index moves into `messages` itself. Its two GIN indexes are built on
 * expressions of the message's own columns, and `message_search` (a second row a message, with its key,
 * written by a trigger after every insert) goes. A send no longer writes that row, its primary key
 * entry or its trigger's call: about a third of what the index cost a send (BENCHMARKS.md, "Search").
 *
 * - `messages.search_config`: the text search configuration the message is indexed in, its team's
 *   language (`teams.search_language`) when it was written; null for a message not indexed yet, which
 *   `aviary search reindex` indexes by setting it. Both indexes are partial (`search_config is not null`)
 *   so that such a message is in neither. A BEFORE trigger sets it for every new message and for an
 *   edit of one not indexed yet (the one lookup of the team that the old trigger made too).
 * - The word index is on (chat, bucket, words) as 0037 made it: `left(uid, 6)` and
 *   `to_tsvector(search_config, search_fold(text))`; the trigram index on `search_fold(text)`. An edit of
 *   the text, a move to another chat and a delete change both, as any update of an indexed column does.
 *   A search names these expressions exactly (core/search/searchPostgres.ts), so the planner uses them.
 * - The messages `message_search` held keep their index: the column is added with the default `simple`
 *   (no table rewrite), then set to their team's language where it is another, and emptied for the
 *   messages `message_search` lacked (from before 0015, not reindexed yet). Building the two indexes
 *   reads every message once (about a minute for a million).
 *
 * SQLite keeps its FTS5 index (0015, 0029, 0034).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const trgm = `"${rows[0].schema.replaceAll('"', '""')}"`;

  await sql`alter table messages add column search_config regconfig default 'simple'`.execute(db);
  await sql`alter table messages alter column search_config drop default`.execute(db);
  await sql`update messages m set search_config = t.search_language::regconfig
    from teams t where t.id = m.team_id and t.search_language <> 'simple'`.execute(db);
  await sql`update messages m set search_config = null where not exists (select 1 from message_search s where s.uid = m.uid)`.execute(db);

  await sql`drop trigger message_search_write on messages`.execute(db);
  await sql`drop function message_search_write()`.execute(db);
  await sql`drop table message_search`.execute(db);
  await sql`create function message_search_config() returns trigger language plpgsql as $$
    begin
      if new.search_config is null then
        new.search_config := coalesce((select search_language from teams where id = new.team_id), 'simple')::regconfig;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger message_search_config before insert or update of text on messages
    for each row execute function message_search_config()`.execute(db);

  await sql`create index messages_search_words on messages using gin (chat_key, left(uid, 6), to_tsvector(search_config, search_fold(text)))
    where search_config is not null`.execute(db);
  await sql
    .raw(`create index messages_search_folded on messages using gin (search_fold(text) ${trgm}.gin_trgm_ops) where search_config is not null`)
    .execute(db);
  await sql`analyze messages`.execute(db);
}
