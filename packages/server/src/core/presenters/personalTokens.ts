import type { PersonalToken } from '@aviary/protocol';
import type { PersonalTokensTable } from '../../store/schema.js';

/** A personal token as its person sees it (personalTokens.create and .list): never the token itself. */
export const presentPersonalToken = (row: PersonalTokensTable, now: number): PersonalToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  expired: row.expires_at !== null && row.expires_at <= now,
});
