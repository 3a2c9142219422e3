import type { Kysely } from 'kysely';

/**
 * Teams run themselves: invitations, mail, password resets and email verification.
 *
 * - `teams.who_may_invite`: `admins` (the default) or `members` (members and admins; never guests).
 * - `users.email_unverified`: 1 while a person who signed up with an invite link on a server that sends
 *   mail has not yet followed the verification link mailed to them; 0 for everyone else (people made
 *   before this migration too, whose rows it leaves as they are).
 * - `invitations`: an invitation by email or an invite link; only the token's hash is kept. `uses` is
 *   counted by one conditional UPDATE, so two sign-ups never use the last use twice.
 * - `account_tokens`: single-use links of a person's account (a password reset, an email verification),
 *   kept hashed, with an expiry.
 * - `mail_outbox`: mail waiting to go out through SMTP, written in the change's transaction and sent
 *   after the commit, retried a few times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('who_may_invite', 'text', (c) => c.notNull().defaultTo('admins')).execute();
  await db.schema.alterTable('users').addColumn('email_unverified', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('channel_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('invitations_by_team').on('invitations').columns(['team_id', 'created_at']).execute();
  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_tokens_by_user').on('account_tokens').column('user_id').execute();
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['sent_at', 'next_attempt_at']).execute();
}
