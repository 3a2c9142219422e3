import { timingSafeEqual } from 'node:crypto';
import type { ServerContext } from '../context.js';
import type { AppSecretCaller } from './caller.js';
import { ApiError, invalidParameter, missingParameter } from './errors.js';
import { secretDigest } from './listen/gateway.js';

/**
 * An app's secret (`newSecret('as_')`): its prefix and 43 base64url characters, 46 in all, so never a
 * session token (48) nor an app's token (`au_`, `ab_`).
 */
const APP_SECRET = /^as_[A-Za-z0-9_-]{43}$/;

export const looksLikeAppSecret = (bearer: string): boolean => APP_SECRET.test(bearer);

/** A bearer that is not the current secret of the app `appId` names (or there is no such app), and what to send instead. */
export const notTheAppSecret = (appId: string, instead: string): ApiError =>
  new ApiError('InvalidToken', `The bearer is not the current secret of an app "${appId.slice(0, 100)}": ${instead}.`);

/**
 * The app calling with its secret as `Authorization: Bearer`, for a method that takes it: the app is the
 * one `appId` names (secrets are sealed at rest, so a secret cannot be looked up by itself). An app that
 * does not exist and a wrong secret get the same InvalidToken, so the answer confirms no app id. Only the
 * current secret counts: a rotation's previous one signs events for a while but calls nothing.
 */
export async function appSecretCaller(ctx: ServerContext, appId: unknown, secret: string): Promise<AppSecretCaller> {
  if (appId === undefined || appId === null || appId === '') throw missingParameter('appId');
  if (typeof appId !== 'string') throw invalidParameter('appId', 'appId must be a string: the id (a:…) of the app whose secret this is.');
  const app = await ctx.db.selectFrom('apps').select(['id', 'secret']).where('id', '=', appId).executeTakeFirst();
  if (!app || !sameSecret(secret, app.secret)) {
    throw notTheAppSecret(appId, "send the app's secret with that app's id as appId");
  }
  return { kind: 'appSecret', appId: app.id, user: null };
}

/** Compared as digests, so the comparison takes the same time whatever the lengths. */
export function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(Buffer.from(secretDigest(given), 'base64'), Buffer.from(secretDigest(secret), 'base64'));
}
