import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the trigger that indexes a message folds its text (accents off, lower case) once, for
 * both the words and the text the trigram index reads, where it folded it twice: the folding is a
 * dictionary pass over the whole text, a large part of what indexing costs a send (docs/search.md "How
 * the index is kept"). What it writes is the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create or replace function message_search_write() returns trigger language plpgsql as $$
    declare
      folded_text text;
    begin
      if tg_op = 'DELETE' then
        delete from message_search where uid = old.uid;
        return old;
      end if;
      folded_text := search_fold(new.text);
      insert into message_search (uid, chat_key, document, folded)
      values (
        new.uid,
        new.chat_key,
        to_tsvector(coalesce((select search_language from teams where id = new.team_id), 'simple')::regconfig, folded_text),
        folded_text
      )
      on conflict (uid) do update set chat_key = excluded.chat_key, document = excluded.document, folded = excluded.folded;
      return new;
    end $$`.execute(db);
}
