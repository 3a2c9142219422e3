import type { UsersTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { isSqlite } from './streamEntries.js';

/** Who the user is; a person adds email, role and password, a bot its app. */
export type UserFields = Pick<UsersTable, 'id' | 'team_id' | 'first_name' | 'last_name' | 'created_at'> & Partial<UsersTable>;

/**
 * The one writer of user rows (people, app bots, the team's system bot). Unless given, a user has no
 * email, password or image, is a plain member in UTC, and is active. `timezone` is an IANA zone
 * (migration 0031); a caller hands it checked (core/timeZones.ts).
 */
export async function insertUser(db: Db | Tx, fields: UserFields): Promise<UsersTable> {
  const row: UsersTable = {
    email: null, role: 'user', timezone: 'UTC', profile_image: null, password_hash: null, bot_app_id: null, deactivated_at: null, email_unverified: 0,
    ...fields,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

/**
 * Whether an insert failed on the team's one account per email (the unique index `users_email`): another
 * account with that email committed first, after the writer had looked for one (PostgreSQL runs two
 * sign-ups side by side; a double-clicked form is enough).
 */
export function isEmailTaken(error: unknown): boolean {
  const { code, constraint, message } = (error ?? {}) as { code?: unknown; constraint?: unknown; message?: unknown };
  return (code === '23505' && constraint === 'users_email') || (code === 'SQLITE_CONSTRAINT_UNIQUE' && String(message).includes('users.email'));
}

/**
 * Whether the account still stands as a credential was checked against it, before a new one is made
 * from that check (a session, a personal token): active, and with the password verified when one was.
 * PostgreSQL: its row is held `for share` until the transaction ends, so a password change or reset, or
 * a deactivation, under way is waited for and then seen, and one that comes later waits, then ends the
 * new credential with the others. Without it, a sign-in checked against the old password could commit
 * its session after a reset had ended every session. SQLite's one writer has them take turns.
 */
export async function holdStandingAccount(tx: Tx, userId: string, verifiedPasswordHash?: string): Promise<boolean> {
  let query = tx.selectFrom('users').select('id').where('id', '=', userId).where('deactivated_at', 'is', null);
  if (verifiedPasswordHash !== undefined) query = query.where('password_hash', '=', verifiedPasswordHash);
  return (await (isSqlite(tx) ? query : query.forShare()).executeTakeFirst()) !== undefined;
}

/** Records that the person used a session at `now` (people_last_seen, migration 0043). */
export async function recordPersonSeen(tx: Db | Tx, userId: string, now: number): Promise<void> {
  await tx
    .insertInto('people_last_seen')
    .values({ user_id: userId, last_seen_at: now })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ last_seen_at: now }))
    .execute();
}
