import type { UsersTable } from '../../store/schema.js';
import { ApiError, invalidParameter } from '../../errors.js';
import { isSqlite } from '../../store/rows/streamEntries.js';
import { recordPersonSeen } from '../../store/rows/users.js';
import { runChange } from '../effects/effects.js';
import { checkPassword } from '../passwordRules.js';
import { hashPassword } from '../passwords.js';
import { byPerson, recordAudit } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { sessionIdOf } from '../queries/sessions.js';

/** A person acting from one of their sessions (its token's hash), and from where (for the audit log). */
export interface SessionActor {
  person: UsersTable;
  sessionHash: string;
  address: string | null;
}

/** A person acting for themselves (from a session or a personal token), and from where (for the audit log). */
export type PersonAt = Pick<SessionActor, 'person' | 'address'>;

/**
 * Sets a person's new password (the one password rule, core/passwordRules.ts) and ends every other
 * session of theirs in the same transaction, with the audit log's `user.passwordChanged`; every process
 * closes the streams those sessions opened at once (credentialsEnded). The session it was changed from
 * stays. The caller checked the current password against `person`'s row: the change holds only while
 * that is still the password and the session still stands, so a reset or a "sign out everywhere" that
 * committed while the new one was hashed wins (on PostgreSQL the update waits for one under way, then
 * reads its result).
 */
export async function changePassword(ctx: CommandContext, { person, sessionHash, address }: SessionActor, { newPassword }: { newPassword: unknown }): Promise<number> {
  const hash = await hashPassword(checkPassword('newPassword', newPassword));
  return runChange(ctx, async (tx, effects) => {
    const changed = await tx
      .updateTable('users')
      .set({ password_hash: hash })
      .where('id', '=', person.id)
      .where('deactivated_at', 'is', null)
      .where('password_hash', '=', person.password_hash ?? '')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) {
      throw invalidParameter('currentPassword', 'currentPassword is no longer your current password: it was changed or reset meanwhile. Nothing was changed.');
    }
    let session = tx.selectFrom('sessions').select('token_hash').where('token_hash', '=', sessionHash).where('user_id', '=', person.id);
    if (!isSqlite(tx)) session = session.forKeyShare();
    if (!(await session.executeTakeFirst())) throw new ApiError('NotSignedIn', 'This session was signed out while the password was being changed. Nothing was changed.');
    const ended = await tx.deleteFrom('sessions').where('user_id', '=', person.id).where('token_hash', '!=', sessionHash).executeTakeFirst();
    effects.add({ kind: 'credentialsEnded', notice: { userId: person.id } });
    const endedSessions = Number(ended.numDeletedRows);
    await recordAudit(tx, { ...byPerson(person, address), at: ctx.now(), action: 'user.passwordChanged', target: { kind: 'user', id: person.id }, details: { endedSessions } });
    return endedSessions;
  });
}

export type SessionsToRevoke = { sessionId: string } | { all: true; exceptCurrent: boolean };

/**
 * Signs out one of the person's sessions (by its id in sessions.list) or all of them, the calling one
 * kept if asked; every process closes their streams at once. An id that is not one of the person's
 * sessions is refused the same whether it is another person's or none at all.
 */
export async function revokeSessions(ctx: CommandContext, { person, sessionHash: currentSessionHash, address }: SessionActor, which: SessionsToRevoke): Promise<number> {
  const userId = person.id;
  return runChange(ctx, async (tx, effects) => {
    const own = await tx.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute();
    const ending = own
      .map((row) => row.token_hash)
      .filter((hash) => ('sessionId' in which ? sessionIdOf(hash) === which.sessionId : !which.exceptCurrent || hash !== currentSessionHash));
    if ('sessionId' in which && ending.length === 0) {
      throw invalidParameter('sessionId', 'sessionId is not one of your sessions; sessions.list gives their ids.');
    }
    if (ending.length > 0) {
      await tx.deleteFrom('sessions').where('user_id', '=', userId).where('token_hash', 'in', ending).execute();
      effects.add({ kind: 'credentialsEnded', notice: { userId } });
    }
    await recordAudit(tx, { ...byPerson(person, address), at: ctx.now(), action: 'session.revoked', target: { kind: 'user', id: userId }, details: { ...which, revoked: ending.length } });
    return ending.length;
  });
}

/** Sessions whose last use this process wrote in the last minute, and when (bounded: cleared when full). */
const touched = new Map<string, number>();
const TOUCH_EVERY_MS = 60_000;
const MAX_TOUCHED = 10_000;

/**
 * Records that a person's session was used, at most once a minute per session and process (sessions.list's
 * "last seen"): the session (its token's hash) is who acts; there is nothing else to say.
 */
export async function touchSession(ctx: CommandContext, { sessionHash }: Pick<SessionActor, 'sessionHash'>, _params: Record<string, never>): Promise<void> {
  const now = ctx.now();
  const last = touched.get(sessionHash);
  if (last !== undefined && now - last < TOUCH_EVERY_MS && now >= last) return;
  if (touched.size >= MAX_TOUCHED) touched.clear();
  touched.set(sessionHash, now);
  await runChange(ctx, async (tx) => {
    const touchedSession = await tx
      .updateTable('sessions')
      .set({ last_seen_at: now })
      .where('token_hash', '=', sessionHash)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', now - TOUCH_EVERY_MS)]))
      .returning('user_id')
      .executeTakeFirst();
    // The person's too, which outlives the session (the admin console's "last active").
    if (touchedSession) await recordPersonSeen(tx, touchedSession.user_id, now);
  });
}
