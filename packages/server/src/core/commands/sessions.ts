import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { hashToken, newSecret } from '../ids.js';
import { verifyPassword } from '../passwords.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Checks a person's email and password; returns a new session token, or null when they do not match. */
export async function signIn(db: Db, input: { email: string; password: string; now: number }): Promise<{ sessionToken: string; user: UsersTable } | null> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', input.email.trim().toLowerCase())
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
  if (!user?.password_hash || !(await verifyPassword(input.password, user.password_hash))) return null;
  const sessionToken = newSecret('as_s_');
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(sessionToken), user_id: user.id, created_at: input.now, expires_at: input.now + SESSION_LIFETIME_MS })
    .execute();
  return { sessionToken, user };
}

export async function signOut(db: Db, sessionToken: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(sessionToken)).execute();
}

/** The person behind a live session token, or undefined. */
export async function sessionUser(db: Db, sessionToken: string, now: number): Promise<UsersTable | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .where('s.token_hash', '=', hashToken(sessionToken))
    .where('s.expires_at', '>', now)
    .where('u.deactivated_at', 'is', null)
    .executeTakeFirst();
}
