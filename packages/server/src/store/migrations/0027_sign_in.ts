import type { Kysely } from 'kysely';

/**
 * Sign-in methods (issue 25).
 *
 * - `team_sign_in`: a team's own sign-in settings, one row per team that changed them: whether its people
 *   may sign in with a password, and its OpenID Connect provider (issuer, client id, the client secret
 *   sealed with the server's key like an app's secret, allowed email domains as a JSON array, whether a
 *   first sign-in creates the account). A team without a row signs in by password and by the provider of
 *   the environment (AVIARY_OIDC_*), if any.
 * - `sso_attempts`: a sign-in begun at the provider, single-use, keyed by the hash of its `state`; bound to
 *   the browser that began it by the hash of a cookie value, with the nonce and PKCE verifier to finish it.
 * - `sso_identities`: who a provider's subject is, once linked by verified email: later sign-ins follow
 *   the subject, not an email the provider may let change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team_sign_in')
    .addColumn('team_id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('password_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('oidc_issuer', 'text')
    .addColumn('oidc_client_id', 'text')
    .addColumn('oidc_client_secret_sealed', 'text')
    .addColumn('oidc_allowed_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('oidc_create_accounts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sso_attempts')
    .addColumn('state_hash', 'text', (c) => c.notNull().primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_attempts_by_expiry').on('sso_attempts').column('expires_at').execute();
  await db.schema
    .createTable('sso_identities')
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_identities_pk', ['team_id', 'issuer', 'subject'])
    .execute();
  await db.schema.createIndex('sso_identities_by_user').on('sso_identities').column('user_id').execute();
}
