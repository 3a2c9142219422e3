import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * Two changes for the path of every message sent.
 *
 * The client-id index holds only messages that carry a client id: those are the only ones ever looked up
 * by it (`client_id = ?`), and an entry for every other message cost an index page to write.
 *
 * SQLite only: `credentials_version`, one row bumped by triggers in the same transaction as every change
 * that can alter what a method token resolves to, by whichever process makes it, so a server may keep
 * resolved tokens while the version stands (src/api/caller.ts). PostgreSQL keeps no such cache: there a
 * version read costs a round trip like the lookup itself, and one hot row would serialise those writers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_client_id').execute();
  await db.schema
    .createIndex('messages_client_id')
    .on('messages')
    .columns(['from_user_id', 'client_id'])
    .where(sql.ref('client_id'), 'is not', null)
    .execute();

  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await db.schema.createTable('credentials_version').addColumn('version', 'integer', (c) => c.notNull()).execute();
  await sql`insert into credentials_version (version) values (0)`.execute(db);
  // What the token lookup reads: the token, its user (the whole row), the app's team switch, the install.
  const changes = [
    ['app_tokens', 'insert'],
    ['app_tokens', 'update'],
    ['app_tokens', 'delete'],
    ['users', 'update'],
    ['users', 'delete'],
    ['apps', 'update of disabled_by_team'],
    ['apps', 'delete'],
    ['installs', 'insert'],
    ['installs', 'update'],
    ['installs', 'delete'],
  ];
  for (const [table, event] of changes) {
    const name = `credentials_version_${table}_${event.split(' ')[0]}`;
    await sql
      .raw(`create trigger ${name} after ${event} on ${table} begin update credentials_version set version = version + 1; end`)
      .execute(db);
  }
}
