import { createHmac } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { EventTokenError, verifyEventToken } from '../src/index.js';
import { appId, appSecret, otherUserId, sha256Of, signEventToken, unsignedToken, userId } from './helpers/events.js';

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

/** A token assembled by hand, for headers and signatures no JWT library would produce. */
function handMadeToken(header: Record<string, unknown>, payload: Record<string, unknown>, secret = appSecret): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${part(header)}.${part(payload)}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

const freshClaims = () => {
  const iat = Math.floor(Date.now() / 1000);
  return { appId, userId, iat, exp: iat + 600, jti: 'evt-hand' };
};

describe('verifyEventToken parses strictly', () => {
  it('accepts the canonical token it is given', async () => {
    await expect(verifyEventToken(handMadeToken({ alg: 'HS256', typ: 'JWT' }, freshClaims()), { appId, appSecret })).resolves.toMatchObject({ jti: 'evt-hand' });
  });

  it.each([
    ['padding', (signature: string) => `${signature}=`],
    ['junk appended', (signature: string) => `${signature}!`],
    ['whitespace appended', (signature: string) => `${signature} `],
    ['standard base64 characters', (signature: string) => `${signature.slice(0, -1)}+`],
  ])('refuses a signature with %s', async (_case, spoil) => {
    const token = handMadeToken({ alg: 'HS256', typ: 'JWT' }, freshClaims());
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(await reasonOf(verifyEventToken(`${header}.${payload}.${spoil(signature)}`, { appId, appSecret }))).toBe('malformed');
  });

  it('refuses a non-canonical last character even though it decodes to the same bytes', async () => {
    const token = handMadeToken({ alg: 'HS256', typ: 'JWT' }, freshClaims());
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // 32 bytes are 43 characters; the last carries 4 bits and 2 unused ones, which must be zero.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(signature.at(-1)!);
    const sibling = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last | 1]!;
    const spoiled = signature.slice(0, -1) + sibling;
    expect(Buffer.from(spoiled, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(await reasonOf(verifyEventToken(`${header}.${payload}.${spoiled}`, { appId, appSecret }))).toBe('malformed');
  });

  it('refuses a header with crit', async () => {
    const token = handMadeToken({ alg: 'HS256', crit: ['exp'] }, freshClaims());
    const error = await verifyEventToken(token, { appId, appSecret }).catch((caught: EventTokenError) => caught);
    expect(error).toMatchObject({ reason: 'header', message: expect.stringContaining('crit') });
  });

  it('says which secret to check when the signature does not match', async () => {
    const token = handMadeToken({ alg: 'HS256' }, freshClaims(), 'the-old-secret');
    const error = await verifyEventToken(token, { appId, appSecret }).catch((caught: EventTokenError) => caught);
    expect(error).toMatchObject({ reason: 'signature', message: expect.stringContaining(`is appSecret the secret of app ${appId}?`) });
  });
});

describe('verifyEventToken checks route and digest when asked', () => {
  const content = '{"name":"app.uninstall","userId":"u:aaaaaaaaaaaaaaaa"}';

  it('exposes route and sha256, and accepts the content the token was signed for', async () => {
    const token = await signEventToken({ jti: 'evt-routed' }, { content });
    const claims = await verifyEventToken(token, { appId, appSecret, route: 'listener', content });
    expect(claims).toMatchObject({ route: 'listener', sha256: sha256Of(content), jti: 'evt-routed' });
    await expect(verifyEventToken(token, { appId, appSecret, route: 'listener', content: new TextEncoder().encode(content) })).resolves.toBeDefined();
  });

  it('refuses other content, byte for byte', async () => {
    const token = await signEventToken({}, { content });
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, route: 'listener', content: `${content} ` }))).toBe('digest');
    expect(await reasonOf(verifyEventToken(token, { appId, appSecret, route: 'listener', content: content.replace('uninstall', 'install') }))).toBe('digest');
  });

  it('refuses another route, and a token without route or digest when they are required', async () => {
    const widgetToken = await signEventToken({ route: 'widget' }, { content });
    expect(await reasonOf(verifyEventToken(widgetToken, { appId, appSecret, route: 'listener', content }))).toBe('route');
    const listenerToken = await signEventToken({}, { content });
    expect(await reasonOf(verifyEventToken(listenerToken, { appId, appSecret, route: ['widget', 'browser'], content }))).toBe('route');
    expect(await reasonOf(verifyEventToken(await signEventToken(), { appId, appSecret, route: 'listener' }))).toBe('route');
    expect(await reasonOf(verifyEventToken(await signEventToken({ route: 'listener' }), { appId, appSecret, content }))).toBe('digest');
  });

  it('refuses a route or digest claim of the wrong form', async () => {
    expect(await reasonOf(verifyEventToken(await signEventToken({ route: 'webhook' }), { appId, appSecret }))).toBe('claims');
    expect(await reasonOf(verifyEventToken(await signEventToken({ sha256: 'abc' }), { appId, appSecret }))).toBe('claims');
  });
});
