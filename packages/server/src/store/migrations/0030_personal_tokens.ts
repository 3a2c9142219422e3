import type { Kysely } from 'kysely';

/**
 * Personal API tokens (issue 25): a person's tokens for their scripts, acting as the person
 * (personalTokens.create). Stored hashed, as sessions are; `expires_at` null never expires. Revoking
 * keeps the row (`revoked_at`) so that a revoked token is refused as revoked, not as unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('personal_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('personal_tokens_user').on('personal_tokens').columns(['user_id', 'created_at']).execute();
}
