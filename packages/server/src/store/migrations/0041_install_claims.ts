import type { Kysely } from 'kysely';

/**
 * One install of an app for a person at a time (core/commands/installs.ts). Installing sends the app a
 * new token in `app.install` and stores it only after the listener answered; two installs at once would
 * send two tokens, and the one stored last need not be the one the app kept. A claim, taken before the
 * event goes out and given back when the install is stored or refused, lets only one through. A claim
 * whose process died lapses at `expires_at`. Claims are transient: no export or backup needs them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('install_claims')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('claim', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('install_claims_pk', ['app_id', 'user_id'])
    .execute();
}
