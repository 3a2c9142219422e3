import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { hashToken } from '../../store/ids.js';
import { inBatches } from '../../store/batches.js';
import type { PersonalToken } from '@aviary/protocol';
import { presentPersonalToken } from '../presenters/personalTokens.js';

/**
 * The person a personal token acts for, or InvalidToken saying why not: unknown, revoked, expired, or its
 * person deactivated. Its use is recorded at most once a minute (personalTokens.list's "last used").
 */
export async function personOfPersonalToken(db: Db, token: string, now: number): Promise<UsersTable> {
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('personal_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select(['t.expires_at as tokenExpiresAt', 't.revoked_at as tokenRevokedAt', 't.last_used_at as tokenLastUsedAt'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) throw new ApiError('InvalidToken', 'The personal token is unknown: check that it was copied whole.');
  const { tokenExpiresAt, tokenRevokedAt, tokenLastUsedAt, ...person } = row;
  if (tokenRevokedAt !== null) throw new ApiError('InvalidToken', 'The personal token was revoked: create a new one in your profile.');
  if (tokenExpiresAt !== null && tokenExpiresAt <= now) {
    throw new ApiError('InvalidToken', `The personal token expired at ${new Date(tokenExpiresAt).toISOString()}: create a new one in your profile.`);
  }
  if (person.deactivated_at !== null) throw new ApiError('InvalidToken', 'The personal token’s account is deactivated.');
  if (tokenLastUsedAt === null || tokenLastUsedAt < now - 60_000) {
    await db.updateTable('personal_tokens').set({ last_used_at: now }).where('token_hash', '=', tokenHash).execute();
  }
  return person;
}

/** Of the given hashes, those of personal tokens still standing for an active person (in chunks of 500). */
export async function livePersonalTokenHashes(db: Db, tokenHashes: readonly string[], now: number): Promise<Set<string>> {
  const live = new Set<string>();
  for (const batch of inBatches(tokenHashes, 1, 500)) {
    const rows = await db
      .selectFrom('personal_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select('t.token_hash')
      .where('t.token_hash', 'in', batch)
      .where('t.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', now)]))
      .where('u.deactivated_at', 'is', null)
      .execute();
    for (const row of rows) live.add(row.token_hash);
  }
  return live;
}

/** The person's tokens not revoked, the newest first. */
export async function listPersonalTokens(db: Db, userId: string, now: number): Promise<PersonalToken[]> {
  const rows = await db
    .selectFrom('personal_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => presentPersonalToken(row, now));
}
