import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { hashToken, newSecret } from '../../store/ids.js';
import { liveCredentialHashes } from '../queries/sessions.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import type { Browser } from './sessions.js';

/** Tickets are 40-odd characters; anything much longer is not one and is not hashed or looked up. */
const MAX_TICKET_LENGTH = 256;

/**
 * A ticket to open the stream without the session cookie (a client that cannot send it, or another
 * origin's page that the person's session trusts): single-use, valid for `lifetimeMs`, stored hashed so
 * that any server process can accept it. It stands for the session that asked: when that session ends,
 * so does the stream opened with it. A personal token may ask for one too: the stream then ends with that token.
 */
export async function issueStreamTicket(
  ctx: CommandContext,
  { person, sessionHash }: { person: Pick<UsersTable, 'id'>; sessionHash: string },
  { lifetimeMs }: { lifetimeMs: number },
): Promise<{ ticket: string; expiresAt: number }> {
  const ticket = newSecret('st_');
  const now = ctx.now();
  const expiresAt = now + lifetimeMs;
  await runChange(ctx, async (tx) => {
    // A person's spent or expired tickets go with each new one, so they never pile up.
    await tx.deleteFrom('stream_tickets').where('user_id', '=', person.id).where('expires_at', '<=', now).execute();
    await tx.insertInto('stream_tickets').values({ token_hash: hashToken(ticket), user_id: person.id, session_hash: sessionHash, expires_at: expiresAt }).execute();
  });
  return { ticket, expiresAt };
}

/**
 * Spends a ticket: the person it was made for and their session's hash, while the ticket has not expired
 * and the session is still live; undefined otherwise. The delete decides, so two uses of one ticket at
 * once cannot both succeed.
 */
export async function redeemStreamTicket(ctx: CommandContext, _browser: Browser, { ticket }: { ticket: string }): Promise<{ person: UsersTable; sessionHash: string } | undefined> {
  if (ticket.length > MAX_TICKET_LENGTH) return undefined;
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    const spent = await tx.deleteFrom('stream_tickets').where('token_hash', '=', hashToken(ticket)).returning(['session_hash', 'expires_at']).executeTakeFirst();
    if (!spent || spent.expires_at <= now) return undefined;
    const person = await personOfLiveCredential(tx, spent.session_hash, now);
    return person ? { person, sessionHash: spent.session_hash } : undefined;
  });
}

/** The active person behind a live session's or personal token's hash, or undefined. */
async function personOfLiveCredential(db: Db, credentialHash: string, now: number): Promise<UsersTable | undefined> {
  if (!(await liveCredentialHashes(db, [credentialHash], now)).has(credentialHash)) return undefined;
  const viaSession = await db.selectFrom('sessions as s').innerJoin('users as u', 'u.id', 's.user_id').selectAll('u').where('s.token_hash', '=', credentialHash).executeTakeFirst();
  return viaSession ?? db.selectFrom('personal_tokens as t').innerJoin('users as u', 'u.id', 't.user_id').selectAll('u').where('t.token_hash', '=', credentialHash).executeTakeFirst();
}
