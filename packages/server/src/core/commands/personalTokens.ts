import { maxLivePersonalTokens, maxPersonalTokenNameLength, type PersonalToken } from '@aviary/protocol';
import { presentPersonalToken } from '../presenters/personalTokens.js';
import type { CommandContext } from '../context.js';
import type { PersonAt } from './accounts.js';
import { ApiError, invalidParameter } from '../../errors.js';
import type { PersonalTokensTable } from '../../store/schema.js';
import { hashToken, newSecret, newUlid } from '../../store/ids.js';
import { holdStandingAccount } from '../../store/rows/users.js';
import { lockName } from '../../store/rows/locks.js';
import { byPerson, recordAudit } from '../audit/record.js';
import { runChange } from '../effects/effects.js';
import { checkVisibleName } from '../names.js';

/** Every personal token starts so: 48 characters in all, like a session token, and no app token has the shape. */
export const PERSONAL_TOKEN_PREFIX = 'as_p_';
export const PERSONAL_TOKEN = /^as_p_[A-Za-z0-9_-]{43}$/;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Makes a personal token for the person, recorded in the audit log; the token itself is returned this
 * once and stored only hashed.
 */
export async function createPersonalToken(
  ctx: CommandContext,
  { person, address }: PersonAt,
  input: { name: string; expiresInDays?: number | undefined },
): Promise<{ token: string; personalToken: PersonalToken }> {
  const name = checkVisibleName('name', input.name.trim());
  if (name.length > maxPersonalTokenNameLength) throw invalidParameter('name', `name is at most ${maxPersonalTokenNameLength} characters.`);
  const now = ctx.now();
  const token = newSecret(PERSONAL_TOKEN_PREFIX);
  const row: PersonalTokensTable = {
    id: `pt_${newUlid(now)}`,
    user_id: person.id,
    name,
    token_hash: hashToken(token),
    created_at: now,
    expires_at: input.expiresInDays === undefined ? null : now + input.expiresInDays * DAY_MS,
    last_used_at: null,
    revoked_at: null,
  };
  await runChange(ctx, async (tx) => {
    // Deactivated meanwhile (every token of theirs revoked, every session ended): no new token.
    if (!(await holdStandingAccount(tx, person.id))) throw new ApiError('NotSignedIn', 'Your account was deactivated; no token was made.');
    // A person's new tokens take turns from the count, so two at once cannot both pass it one short of the cap.
    await lockName(tx, `personal tokens of ${person.id}`);
    const live = await tx
      .selectFrom('personal_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', person.id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= maxLivePersonalTokens) {
      throw invalidParameter('name', `You have ${maxLivePersonalTokens} personal tokens that work, the most a person keeps; revoke one you no longer use (personalTokens.revoke) first.`);
    }
    await tx.insertInto('personal_tokens').values(row).execute();
    await recordAudit(tx, {
      ...byPerson(person, address),
      at: now,
      action: 'personalToken.created',
      target: { kind: 'personalToken', id: row.id },
      details: { name, expiresAt: row.expires_at },
    });
  });
  return { token, personalToken: presentPersonalToken(row, now) };
}

/**
 * Revokes one of the person's tokens, recorded in the audit log; every process closes the streams opened
 * with it at once (credentialsEnded). Another person's token is refused as one that does not exist.
 */
export async function revokePersonalToken(ctx: CommandContext, { person, address }: PersonAt, { tokenId }: { tokenId: string }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, async (tx, effects) => {
    const revoked = await tx
      .updateTable('personal_tokens')
      .set({ revoked_at: now })
      .where('id', '=', tokenId)
      .where('user_id', '=', person.id)
      .where('revoked_at', 'is', null)
      .returning('name')
      .executeTakeFirst();
    if (!revoked) throw invalidParameter('tokenId', 'tokenId is not one of your personal tokens (or it is already revoked); personalTokens.list gives their ids.');
    await recordAudit(tx, { ...byPerson(person, address), at: now, action: 'personalToken.revoked', target: { kind: 'personalToken', id: tokenId }, details: { name: revoked.name } });
    effects.add({ kind: 'credentialsEnded', notice: { userId: person.id } });
  });
}
