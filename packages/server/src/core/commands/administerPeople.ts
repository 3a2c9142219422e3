import type { AdminPerson } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { byPerson, recordAudit } from '../audit/record.js';
import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { passwordResetMail } from '../mail/messages.js';
import { enqueueMail } from '../mail/outbox.js';
import { findTeamPerson } from '../queries/admin.js';
import { entry } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { linkTo } from '../webLinks.js';
import { passwordsOff } from '../signIn/settings.js';
import { issueAccountLinkIn } from './internal/accountLinkRows.js';
import { deactivatePersonIn, holdAdminStanding, keepAnAdmin } from './internal/personRows.js';

/** A team admin acting from the console, and where from (for the audit log). */
export interface AdminActor {
  admin: UsersTable;
  address: string | null;
}

const HOUR_MS = 60 * 60 * 1000;

/** The team's person, or UnknownUser (for a bot, another team's person, or an id that is no one). */
async function personOf(tx: Tx, admin: UsersTable, userId: string, now: number): Promise<AdminPerson> {
  const person = await findTeamPerson(tx, admin.team_id, userId, now);
  if (!person) throw new ApiError('UnknownUser', `There is no person ${userId} in your team.`, { parameter: 'userId' });
  return person;
}

/** Gives a person a role; the whole team hears of it (`user.roleChanged`), and the audit log records the old and new role. */
export async function setPersonRole(ctx: CoreContext, { admin, address }: AdminActor, { userId, role }: { userId: string; role: UsersTable['role'] }): Promise<AdminPerson> {
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    await holdAdminStanding(tx, admin);
    const before = await personOf(tx, admin, userId, ctx.now());
    if (before.user.role === role) return before;
    if (before.user.role === 'admin' && before.deactivatedAt === null) await keepAnAdmin(tx, admin.team_id, userId, 'Taking away the last admin’s role');
    await tx.updateTable('users').set({ role }).where('id', '=', userId).execute();
    await recordAudit(tx, { ...byPerson(admin, address), at: now, action: 'user.roleChanged', target: { kind: 'user', id: userId }, details: { from: before.user.role, to: role } });
    await recordStreamEntries(tx, effects, admin.team_id, [entry('user.roleChanged', { to: 'team' }, { userId, role })], now);
    return personOf(tx, admin, userId, ctx.now());
  });
}

/** Deactivates a person (never oneself, never the last admin): core/commands/people.ts deactivatePerson, with the admin as actor. */
export async function deactivateFromConsole(ctx: CoreContext, { admin, address }: AdminActor, { userId }: { userId: string }): Promise<AdminPerson> {
  if (userId === admin.id) throw new ApiError('PermissionDenied', 'You cannot deactivate your own account from the console; another admin can.', { parameter: 'userId' });
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    await holdAdminStanding(tx, admin);
    const person = await personOf(tx, admin, userId, now);
    if (person.deactivatedAt !== null) return person;
    if (person.user.role === 'admin') await keepAnAdmin(tx, admin.team_id, userId, 'Deactivating the last admin');
    await deactivatePersonIn(tx, effects, userId, now, byPerson(admin, address).actor);
    return personOf(tx, admin, userId, now);
  });
}

/** Reactivates a deactivated person: they sign in again (their sessions ended when they were deactivated). */
export async function reactivateFromConsole(ctx: CoreContext, { admin, address }: AdminActor, { userId }: { userId: string }): Promise<AdminPerson> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    await holdAdminStanding(tx, admin);
    const before = await personOf(tx, admin, userId, ctx.now());
    if (before.deactivatedAt === null) return before;
    await tx.updateTable('users').set({ deactivated_at: null }).where('id', '=', userId).execute();
    await recordAudit(tx, { ...byPerson(admin, address), at: now, action: 'user.reactivated', target: { kind: 'user', id: userId } });
    return personOf(tx, admin, userId, ctx.now());
  });
}

/**
 * A single-use reset link for a person, valid an hour: answered to the admin to hand over, or mailed to
 * the person (`email`) when the server sends mail. The audit log records which, never the link.
 */
export async function adminPasswordReset(
  ctx: CoreContext,
  { admin, address }: AdminActor,
  { userId, email }: { userId: string; email: boolean },
): Promise<{ link?: string; mailed: boolean; expiresAt: number }> {
  if (email && ctx.config.smtpUrl === undefined) throw new ApiError('MailNotConfigured', 'This server sends no mail; leave email out to get a link to hand over.', { parameter: 'email' });
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    await holdAdminStanding(tx, admin);
    const person = await personOf(tx, admin, userId, ctx.now());
    if (person.deactivatedAt !== null) throw new ApiError('PermissionDenied', 'This person is deactivated; reactivate them before resetting their password.', { parameter: 'userId' });
    if (await passwordsOff(tx, admin.team_id)) {
      throw new ApiError('PasswordSignInOff', 'Your team signs in through its single sign-on provider only: a password would not let them in. Switch password sign-in on first (Team settings).');
    }
    const token = await issueAccountLinkIn(tx, userId, 'reset', now);
    const link = linkTo(ctx.config, `/reset-password#${token}`);
    await recordAudit(tx, { ...byPerson(admin, address), at: now, action: 'user.passwordResetByAdmin', target: { kind: 'user', id: userId }, details: { mailed: email } });
    if (!email) return { link, mailed: false, expiresAt: now + HOUR_MS };
    const team = await tx.selectFrom('teams').select('name').where('id', '=', admin.team_id).executeTakeFirstOrThrow();
    await enqueueMail(tx, effects, passwordResetMail(person.user.email!, { teamName: team.name, link }), now);
    return { mailed: true, expiresAt: now + HOUR_MS };
  });
}
