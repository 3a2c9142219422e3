import type { Kysely } from 'kysely';

/**
 * The trust model's settings.
 *
 * - `apps.allowed_origins`: JSON array of origins (`https://host[:port]`) besides the listener, integration
 *   and configuration URLs to which the app's widget and browser tokens may be handed.
 * - `teams.app_creators`: who in the team may create apps: `members` (members and admins, the default),
 *   `admins`, or `everyone` (guests too).
 * - `users_by_email`: sign-in looks a person up by email across teams.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('teams').addColumn('app_creators', 'text', (c) => c.notNull().defaultTo('members')).execute();
  await db.schema.createIndex('users_by_email').on('users').column('email').execute();
}
