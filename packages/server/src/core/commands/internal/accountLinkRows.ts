import { hashToken, newSecret } from '../../../store/ids.js';
import type { AccountTokensTable } from '../../../store/schema.js';
import type { Tx } from '../../../store/store.js';

const HOUR_MS = 60 * 60 * 1000;
/** How long a link is good for: a password reset an hour, an email verification a week. */
const LIFETIME_MS: Record<AccountTokensTable['purpose'], number> = { reset: HOUR_MS, verify: 7 * 24 * HOUR_MS };

/** Stores a new single-use link of the account (its hash only) and answers its token. */
export async function issueAccountLinkIn(tx: Tx, userId: string, purpose: AccountTokensTable['purpose'], now: number): Promise<string> {
  const token = newSecret(purpose === 'reset' ? 'pwr_' : 'ver_');
  await tx.insertInto('account_tokens').values({ token_hash: hashToken(token), user_id: userId, purpose, expires_at: now + LIFETIME_MS[purpose], used_at: null, created_at: now }).execute();
  return token;
}
