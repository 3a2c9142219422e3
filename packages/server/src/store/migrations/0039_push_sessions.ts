import type { Kysely } from 'kysely';

/**
 * A browser's Web Push subscription belongs to the session it was made from (`session_hash`, the
 * session's token hash): pushes go only to subscriptions whose session is still signed in, so a browser
 * signed out from elsewhere (another device, a password change, a deactivation) stops getting message
 * previews. Subscriptions kept so far name no session: they get no push, and the web client subscribes
 * its browser again, with its session, the next time it is opened. (0038 was never released.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_subscriptions').addColumn('session_hash', 'text').execute();
  await db.schema.createIndex('push_subscriptions_by_session').on('push_subscriptions').column('session_hash').execute();
}
