import type { Tx } from '../../../store/store.js';
import { ApiError } from '../../../errors.js';
import { lockRows } from '../../../store/rows/locks.js';
import { recordAudit, type AuditActor } from '../../audit/record.js';
import type { Effects } from '../../effects/effects.js';

// Row writes that the commands about people share (administerPeople.ts, people.ts, deactivateAccount.ts),
// and the admin's standing that every admin change checks, inside the transaction of the command that
// calls them; never called from a handler.

/**
 * The admin still an active admin of the team, as their change begins; else PermissionDenied. Their
 * standing was checked when the call was authenticated; this checks it again where it counts. Admin
 * changes take turns on the team's row (PostgreSQL; as keepAnAdmin does), so a change cannot pass while
 * a demotion or deactivation of its admin commits beside it, and two admins deactivating or demoting each
 * other at once do not both succeed.
 */
export async function holdAdminStanding(tx: Tx, admin: { id: string; team_id: string }): Promise<void> {
  await lockRows(tx, 'teams', 'id', [admin.team_id], 'update');
  const standing = await tx.selectFrom('users').select('id').where('id', '=', admin.id).where('role', '=', 'admin').where('deactivated_at', 'is', null).executeTakeFirst();
  if (!standing) throw new ApiError('PermissionDenied', 'You are no longer an active admin of this team.');
}

/**
 * Refuses a change that would leave the team with no active admin. The team's row is locked first on
 * PostgreSQL, so two admins demoting (or deactivating) each other at once cannot both pass: the second
 * waits for the first to commit and then counts without it. SQLite runs one write transaction at a time.
 */
export async function keepAnAdmin(tx: Tx, teamId: string, leaving: string, what: string, parameter: string | undefined = 'userId'): Promise<void> {
  await lockRows(tx, 'teams', 'id', [teamId], 'update');
  const others = await tx
    .selectFrom('users')
    .select('id')
    .where('team_id', '=', teamId)
    .where('role', '=', 'admin')
    .where('deactivated_at', 'is', null)
    .where('bot_app_id', 'is', null)
    .where('id', '!=', leaving)
    .limit(1)
    .execute();
  if (others.length === 0) throw new ApiError('PermissionDenied', `${what} would leave the team without an admin; make someone else an admin first.`, parameter ? { parameter } : {});
}

/** deactivatePerson inside a change that checks something first (the console's last-admin rule). */
export async function deactivatePersonIn(tx: Tx, effects: Effects, userId: string, now: number, actor: AuditActor): Promise<void> {
  const person = await tx.updateTable('users').set({ deactivated_at: now }).where('id', '=', userId).returning('team_id').executeTakeFirst();
  if (person) await recordAudit(tx, { teamId: person.team_id, actor, at: now, action: 'user.deactivated', target: { kind: 'user', id: userId } });
  await tx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await revokeAllPersonalTokens(tx, userId, now);
  effects.add({ kind: 'credentialsEnded', notice: { userId } });
}

/** Revokes every token of the person, in the caller's transaction: deactivation ends them for good, a reactivation does not bring them back. */
export async function revokeAllPersonalTokens(tx: Tx, userId: string, now: number): Promise<void> {
  await tx.updateTable('personal_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
