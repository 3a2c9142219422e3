import type { Kysely } from 'kysely';

/**
 * Incoming webhooks and scheduled messages (Aviary extensions, docs/reference/webhooks.md and
 * docs/reference/methods.md "chat.scheduleMessage").
 *
 * `webhooks`: a channel's incoming webhook, owned by whoever made it (a person, or a user or bot of an
 * app); only the SHA-256 of its secret is kept, the URL being shown once. `messages.webhook_id`: the
 * webhook a message came through, so that clients mark it as an integration's.
 *
 * `scheduled_messages`: a message to send at `send_at`, with chat.sendMessage's params as JSON. `status`
 * is `pending` until the one transaction that stores the message marks it `sent` (exactly once, whichever
 * process gets there first), or `failed` with the refusal the send met then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('on_behalf_of', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon_url', 'text')
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhooks_by_channel').on('webhooks').columns(['channel_id', 'created_at']).execute();
  await db.schema.createIndex('webhooks_by_owner').on('webhooks').columns(['owner_user_id', 'created_at']).execute();
  await db.schema.alterTable('messages').addColumn('webhook_id', 'text').execute();

  await db.schema
    .createTable('scheduled_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('sender_user_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('to_id', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('send_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message_uid', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_description', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('scheduled_messages_due').on('scheduled_messages').columns(['status', 'send_at']).execute();
  await db.schema.createIndex('scheduled_messages_by_sender').on('scheduled_messages').columns(['sender_user_id', 'send_at']).execute();
}
