import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../../store/store.js';
import { hashToken, newSecret } from '../../../store/ids.js';

// The row writes of installs and of the app switches, inside a transaction a command holds (core/commands/
// apps.ts, installs.ts): building blocks of those commands, never called from a handler.

/** A new token for a user of an app; it works once `recordInstallIn` has stored it. */
export const newUserToken = (): string => newSecret('au_');

interface InstallRecord {
  appId: string;
  userId: string;
  now: number;
  token?: string | undefined;
}

/**
 * Claims the one install of the app for the person until `expiresAt` (migration 0041): the claim's id,
 * or undefined while another install's claim stands. A lapsed claim is taken over in the same statement.
 */
export async function claimInstall(db: Db, input: { appId: string; userId: string; now: number; expiresAt: number }): Promise<string | undefined> {
  const claim = randomUUID();
  const result = await db
    .insertInto('install_claims')
    .values({ app_id: input.appId, user_id: input.userId, claim, expires_at: input.expiresAt })
    .onConflict((conflict) => conflict.columns(['app_id', 'user_id']).doUpdateSet({ claim, expires_at: input.expiresAt }).where('install_claims.expires_at', '<=', input.now))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows) > 0 ? claim : undefined;
}

/** Gives a claim back; one that lapsed and was taken over by another install is left to it. */
export async function releaseInstallClaim(db: Db, input: { appId: string; userId: string; claim: string }): Promise<void> {
  await db.deleteFrom('install_claims').where('app_id', '=', input.appId).where('user_id', '=', input.userId).where('claim', '=', input.claim).execute();
}

/** Records an install with the user's token (by default a new one); see recordInstall. */
export async function recordInstallIn(tx: Tx, input: InstallRecord): Promise<{ token: string }> {
  const token = input.token ?? newUserToken();
  await tx
    .insertInto('installs')
    .values({ app_id: input.appId, user_id: input.userId, disabled_by_user: 0, created_at: input.now })
    .onConflict((conflict) => conflict.columns(['app_id', 'user_id']).doUpdateSet({ disabled_by_user: 0, created_at: input.now }))
    .execute();
  await revokeUserTokens(tx, input);
  await tx
    .insertInto('app_tokens')
    .values({ token_hash: hashToken(token), app_id: input.appId, user_id: input.userId, kind: 'user', created_at: input.now })
    .execute();
  return { token };
}

/** Removes an install and revokes the user's token for the app. Returns whether there was one. */
export async function removeInstallIn(tx: Tx, input: { appId: string; userId: string }): Promise<boolean> {
  await revokeUserTokens(tx, input);
  const result = await tx.deleteFrom('installs').where('app_id', '=', input.appId).where('user_id', '=', input.userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

async function revokeUserTokens(tx: Tx, input: { appId: string; userId: string }): Promise<void> {
  await tx.deleteFrom('app_tokens').where('app_id', '=', input.appId).where('user_id', '=', input.userId).where('kind', '=', 'user').execute();
}

/** Returns whether the user had installed the app. */
export async function setInstallDisabledIn(tx: Tx, input: { appId: string; userId: string; disabled: boolean }): Promise<boolean> {
  const result = await tx
    .updateTable('installs')
    .set({ disabled_by_user: input.disabled ? 1 : 0 })
    .where('app_id', '=', input.appId)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setAppDisabledForTeamIn(tx: Tx, input: { appId: string; disabled: boolean; now: number }): Promise<void> {
  await tx.updateTable('apps').set({ disabled_by_team: input.disabled ? 1 : 0, updated_at: input.now }).where('id', '=', input.appId).execute();
}
