import type { AccountTokensTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { hashToken } from '../../store/ids.js';
import { lockRows } from '../../store/rows/locks.js';
import { ApiError } from '../../errors.js';
import type { CommandContext, CoreContext } from '../context.js';
import type { Browser } from './sessions.js';
import { runChange } from '../effects/effects.js';
import { passwordResetMail } from '../mail/messages.js';
import { enqueueMail } from '../mail/outbox.js';
import { checkPassword } from '../passwordRules.js';
import { hashPassword } from '../passwords.js';
import { recordAudit } from '../audit/record.js';
import { issueAccountLinkIn } from './internal/accountLinkRows.js';
import { linkTo } from '../webLinks.js';
import { teamsWithoutPasswords } from '../signIn/settings.js';

/**
 * Mails a reset link to every active account with this email (one per team whose people sign in with
 * passwords). The caller answers the
 * same whatever this finds, and does not wait for it, so that the answer's time says nothing either.
 */
export async function mailPasswordResets(ctx: CoreContext, { address }: { address: string | null }, { email }: { email: string }): Promise<void> {
  let accounts = await ctx.db
    .selectFrom('users as u')
    .innerJoin('teams as t', 't.id', 'u.team_id')
    .select(['u.id', 'u.email', 'u.team_id', 't.name'])
    .where('u.email', '=', email.trim().toLowerCase())
    .where('u.deactivated_at', 'is', null)
    .where('u.bot_app_id', 'is', null)
    .execute();
  // A team that signs in through its provider alone has no password to reset: its people get nothing.
  const withoutPasswords = await teamsWithoutPasswords(ctx.db, [...new Set(accounts.map((account) => account.team_id))]);
  accounts = accounts.filter((account) => !withoutPasswords.has(account.team_id));
  if (accounts.length === 0) return;
  const now = ctx.now();
  await runChange(ctx, async (tx, effects) => {
    for (const account of accounts) {
      const token = await issueAccountLinkIn(tx, account.id, 'reset', now);
      await recordAudit(tx, { teamId: account.team_id, actor: { userId: null, address }, at: now, action: 'user.passwordResetRequested', target: { kind: 'user', id: account.id } });
      await enqueueMail(tx, effects, passwordResetMail(account.email!, { teamName: account.name, link: linkTo(ctx.config, `/reset-password#${token}`) }), now);
    }
  });
}

/**
 * Uses a link once: the conditional UPDATE decides, so a link raced twice works once. PostgreSQL: the
 * account's row is locked first, so that two links of one account used at once take turns. Otherwise each
 * would hold its own link's row and wait for the account, and the reset that then marks the other
 * links used would wait for the other link's row: a deadlock, and one of them answered 500.
 */
async function useLink(tx: Tx, token: string, purpose: AccountTokensTable['purpose'], now: number): Promise<string> {
  const hash = hashToken(token);
  const unusable = (why: string) =>
    new ApiError('AccountLinkUnusable', `This link ${why}; ${purpose === 'reset' ? 'ask for a new one with “Forgot password?”' : 'sign in and ask for a new one'}.`, { parameter: 'linkToken' });
  const link = await tx.selectFrom('account_tokens').select('user_id').where('token_hash', '=', hash).where('purpose', '=', purpose).executeTakeFirst();
  if (!link) throw unusable('is not a link the server sent');
  await lockRows(tx, 'users', 'id', [link.user_id], 'no key update');
  const used = await tx.updateTable('account_tokens').set({ used_at: now }).where('token_hash', '=', hash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  if (Number(used.numUpdatedRows) === 1) return link.user_id;
  // Not taken: used already (perhaps by a change this one waited for above), or expired.
  const row = await tx.selectFrom('account_tokens').select('used_at').where('token_hash', '=', hash).executeTakeFirst();
  throw unusable(row !== undefined && row.used_at !== null ? 'was already used' : 'has expired');
}

/**
 * Sets a new password with a reset link (once): every session of the person ends in the same
 * transaction and every process closes their streams at once. Following the mailed link shows the
 * person reads mail there, so the email counts as verified too.
 */
export async function resetPassword(ctx: CoreContext, { address }: { address: string | null }, { linkToken: token, newPassword }: { linkToken: string; newPassword: string }): Promise<{ email: string; teamId: string }> {
  const hash = await hashPassword(checkPassword('newPassword', newPassword));
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    const userId = await useLink(tx, token, 'reset', now);
    await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
    await tx.updateTable('users').set({ email_unverified: 0 }).where('id', '=', userId).where('email_unverified', '=', 1).execute();
    await tx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    // Other reset links of the account go too: the password they were for is gone.
    await tx.updateTable('account_tokens').set({ used_at: now }).where('user_id', '=', userId).where('purpose', '=', 'reset').where('used_at', 'is', null).execute();
    effects.add({ kind: 'credentialsEnded', notice: { userId } });
    const user = await tx.selectFrom('users').select(['email', 'team_id']).where('id', '=', userId).executeTakeFirstOrThrow();
    await recordAudit(tx, { teamId: user.team_id, actor: { userId, address }, at: now, action: 'user.passwordReset', target: { kind: 'user', id: userId } });
    return { email: user.email!, teamId: user.team_id };
  });
}

/** Marks the account's email verified, whoever follows the link (a Browser, signed in or not): the link's token is the proof. */
export async function verifyEmail(ctx: CommandContext, _browser: Browser, { linkToken: token }: { linkToken: string }): Promise<{ email: string }> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    const userId = await useLink(tx, token, 'verify', now);
    await tx.updateTable('users').set({ email_unverified: 0 }).where('id', '=', userId).where('email_unverified', '=', 1).execute();
    const user = await tx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
    return { email: user.email! };
  });
}
