import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { EventTokenError, verifyEventToken } from '../src/index.js';
import { appId, appSecret, otherUserId, signEventToken, unsignedToken, userId } from './helpers/events.js';

const issuedAt = Date.UTC(2024, 0, 15, 12, 0, 0);
const at = (ms: number) => () => ms;

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EventTokenError);
  return (error as EventTokenError).reason;
}

describe('verifyEventToken', () => {
  it('returns the claims of a valid token', async () => {
    const token = await signEventToken({ jti: 'evt-42' }, { nowMs: issuedAt });
    const claims = await verifyEventToken(token, { appId, appSecret, userId, now: at(issuedAt) });
    expect(claims).toEqual({ appId, userId, iat: issuedAt / 1000, exp: issuedAt / 1000 + 600, jti: 'evt-42' });
  });

  it('does not check the user when none is given', async () => {
    const token = await signEventToken({ userId: otherUserId });
    await expect(verifyEventToken(token, { appId, appSecret })).resolves.toMatchObject({ userId: otherUserId });
  });

  it('refuses a token signed with another secret', async () => {
    const token = await signEventToken({}, { secret: 'another-secret' });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret }))).toBe('signature');
  });

  it('refuses an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = unsignedToken({ appId, userId, iat: now, exp: now + 600, jti: 'evt-none' });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, userId }))).toBe('algorithm');
  });

  it.each(['HS384', 'HS512'])('refuses %s even when keyed with the right secret', async (alg) => {
    const token = await signEventToken({}, { alg });
    const error = await verifyEventToken(token, { appId, appSecret }).catch((caught: EventTokenError) => caught);
    expect(error).toMatchObject({ reason: 'algorithm', message: expect.stringContaining(alg) });
  });

  it.each(['RS256', 'ES256'])('refuses %s', async (alg) => {
    const { privateKey } = await generateKeyPair(alg);
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ appId, userId, jti: 'evt-asym' })
      .setProtectedHeader({ alg })
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(privateKey);
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret }))).toBe('algorithm');
  });

  it('refuses an expired token, beyond the clock tolerance only', async () => {
    const token = await signEventToken({}, { nowMs: issuedAt });
    const expiry = issuedAt + 600_000;
    await expect(verifyEventToken(token, { appId, appSecret, now: at(expiry + 30_000) })).resolves.toBeDefined();
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, now: at(expiry + 61_000) }))).toBe('expired');
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, now: at(expiry + 1_000), clockToleranceSeconds: 0 }))).toBe(
      'expired',
    );
  });

  it('refuses a token issued in the future beyond the clock tolerance', async () => {
    const token = await signEventToken({}, { nowMs: issuedAt });
    await expect(verifyEventToken(token, { appId, appSecret, now: at(issuedAt - 30_000) })).resolves.toBeDefined();
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, now: at(issuedAt - 120_000) }))).toBe('claims');
  });

  it('refuses a token for another app', async () => {
    const token = await signEventToken({ appId: 'a:someoneelse00001' });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret }))).toBe('appId');
  });

  it('refuses a token for another user than the event names', async () => {
    const token = await signEventToken({ userId: otherUserId });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, userId }))).toBe('userId');
  });

  it.each(['jti', 'appId', 'userId', 'exp', 'iat'] as const)('refuses a token without %s', async (claim) => {
    const token = await signEventToken({ [claim]: undefined });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret }))).toBe('claims');
  });

  it('refuses claims of the wrong type', async () => {
    expect(await reasonOf(verifyEventToken(await signEventToken({ jti: 42 }), { appId, appSecret }))).toBe('claims');
    expect(await reasonOf(verifyEventToken(await signEventToken({ exp: 'tomorrow' }), { appId, appSecret }))).toBe('claims');
  });

  it.each(['', 'not-a-token', 'a.b.c', `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.e30`])(
    'refuses the malformed token %j',
    async (token) => {
      expect(await reasonOf(verifyEventToken(token, { appId, appSecret }))).toBe('malformed');
    },
  );

  it('reads time only from the injected clock', async () => {
    const longAgo = Date.UTC(2001, 8, 9);
    const token = await signEventToken({}, { nowMs: longAgo });
    await expect(verifyEventToken(token, { appId, appSecret, now: at(longAgo + 5 * 60_000) })).resolves.toMatchObject({ appId });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, now: at(longAgo + 12 * 60_000) }))).toBe('expired');
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret }))).toBe('expired');
  });
});
