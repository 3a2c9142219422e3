import type { Kysely } from 'kysely';

/**
 * Mentions and notifications (issue 23).
 *
 * - `teams.broadcast_mention_limit`: in channels of more members than this, only team admins may use
 *   @channel and @here; 0 (the default): no limit.
 * - `notification_levels`: a person's level for one chat (`all`, `mute`), when not the default
 *   (`mentions`); `chat` is the chat as the person names it (a channel id, or the other person's id).
 * - `notification_dnd`: a person's do-not-disturb: a weekly schedule (JSON) and a pause.
 * - `push_subscriptions`: a browser's Web Push subscription, by endpoint, for one person.
 * - `web_push_keys`: the server's VAPID key pair, made by the first process that needs it (the private
 *   key sealed with the server's secret key, like app secrets).
 *
 * A message's `mentions` may hold "@channel" or "@here" beside user ids: its broadcast (the API shows
 * user ids only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('broadcast_mention_limit', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('notification_levels')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('chat_key', 'text', (c) => c.notNull())
    .addColumn('chat', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_levels_pk', ['user_id', 'chat_key'])
    .execute();
  await db.schema
    .createTable('notification_dnd')
    .addColumn('user_id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('schedule', 'text')
    .addColumn('paused_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('endpoint', 'text', (c) => c.notNull().primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_by_user').on('push_subscriptions').column('user_id').execute();
  await db.schema
    .createTable('web_push_keys')
    .addColumn('id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
