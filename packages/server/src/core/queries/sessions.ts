import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { hashToken } from '../../store/ids.js';
import { livePersonalTokenHashes } from './personalTokens.js';
import { inBatches } from '../../store/batches.js';
import { deviceOf } from '../presenters/device.js';

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

/**
 * Of the given credential hashes (a session's token's, or a personal token's: what a stream or listen
 * connection was opened with), those still live for an active person (in chunks of 500).
 */
export async function liveCredentialHashes(db: Db, credentialHashes: readonly string[], now: number): Promise<Set<string>> {
  const live = new Set<string>();
  for (const batch of inBatches(credentialHashes, 1, 500)) {
    const rows = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.token_hash')
      .where('s.token_hash', 'in', batch)
      .where('s.expires_at', '>', now)
      .where('u.deactivated_at', 'is', null)
      .execute();
    for (const row of rows) live.add(row.token_hash);
  }
  const others = credentialHashes.filter((hash) => !live.has(hash));
  if (others.length > 0) for (const hash of await livePersonalTokenHashes(db, others, now)) live.add(hash);
  return live;
}

/** How many hex characters of a session's token hash name it in sessions.list: enough, and no way back to the token. */
const SESSION_ID_LENGTH = 16;

export const sessionIdOf = (tokenHash: string): string => tokenHash.slice(0, SESSION_ID_LENGTH);

export interface SessionSummary {
  id: string;
  device: string;
  address: string | null;
  createdAt: number;
  lastSeenAt: number | null;
  current: boolean;
}

/** The person's live sessions, the newest first, the calling one marked. */
export async function listSessions(db: Db, userId: string, currentSessionHash: string, now: number): Promise<SessionSummary[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('token_hash')
    .execute();
  return rows.map((row) => ({
    id: sessionIdOf(row.token_hash),
    device: deviceOf(row.user_agent),
    address: row.client_address,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    current: row.token_hash === currentSessionHash,
  }));
}
