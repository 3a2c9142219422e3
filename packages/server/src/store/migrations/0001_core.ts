import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('email', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('profile_image', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('bot_app_id', 'text')
    .addColumn('deactivated_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email').unique().on('users').columns(['team_id', 'email']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('profile_image', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('channel_members')
    .addColumn('channel_id', 'text', (c) => c.notNull().references('channels.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('affiliation', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_members_pk', ['channel_id', 'user_id'])
    .execute();
  await db.schema.createIndex('channel_members_user').on('channel_members').columns(['user_id']).execute();

  await db.schema
    .createTable('messages')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('chat_key', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('from_user_id', 'text', (c) => c.notNull())
    .addColumn('to_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('serviceml', 'text')
    .addColumn('notification', 'text')
    .addColumn('mentions', 'text')
    .addColumn('send_as', 'text')
    .addColumn('app_id', 'text')
    .addColumn('attachments', 'text')
    .addColumn('visible_to', 'text')
    .execute();
  await db.schema.createIndex('messages_chat').on('messages').columns(['chat_key', 'uid']).execute();
  await db.schema.createIndex('messages_client_id').on('messages').columns(['from_user_id', 'client_id']).execute();

  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('developer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('listener_url', 'text')
    .addColumn('configuration_url', 'text')
    .addColumn('integrations', 'text', (c) => c.notNull())
    .addColumn('bot_user_id', 'text')
    .addColumn('disabled_by_team', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('installs')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('disabled_by_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('installs_pk', ['app_id', 'user_id'])
    .execute();
  await db.schema.createIndex('installs_user').on('installs').columns(['user_id']).execute();

  await db.schema
    .createTable('app_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_tokens_app_user').on('app_tokens').columns(['app_id', 'user_id']).execute();
}
