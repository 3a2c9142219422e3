import type { Kysely } from 'kysely';

/**
 * A rotated app secret keeps working for a grace period: `previous_secret` signs a second token
 * (X-Service-Event-Token-Previous) on every event until `previous_secret_until`, so an app's listener
 * can be given the new secret after the rotation, not at the same instant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('previous_secret', 'text').execute();
  await db.schema.alterTable('apps').addColumn('previous_secret_until', 'bigint').execute();
}
