import type { ServerContext } from '../../context.js';
import { tooManyRequests } from '../methodRateLimits.js';

/** A password check under the sign-in limits: `forgive` gives the failure buckets their token back. */
export interface PasswordAttempt {
  forgive(): Promise<void>;
}

/** A sign-in under its limits: `noSession` gives the sign-ins bucket its token back when no session was made. */
export interface SignInAttempt extends PasswordAttempt {
  noSession(): Promise<void>;
}

/**
 * Failed sign-ins are limited per (email, client address) (rateLimits.signInFailures) and per client
 * address (rateLimits.signInFailuresPerAddress), never per email alone: an attacker guessing one
 * person's password is slowed down, but cannot lock that person out, who signs in from another address.
 * Nor from a known device (`deviceId`, from a device cookie for this email, deviceCookie.ts): its
 * attempts skip the address's limits, which others behind the same address may have used up, and are
 * limited per device instead (rateLimits.signInFailures), so a stolen cookie buys few guesses.
 *
 * An attempt takes a token from both buckets and gets them back (`forgive`) unless the password was
 * wrong, so only failures count. While either bucket is empty every attempt from there gets
 * TooManyRequests, the right password included, or guessing could simply go on. The email in the key
 * has been checked for length and shape, and the address is a plain IP address.
 */
export async function startSignInAttempt(ctx: ServerContext, email: string, address: string, deviceId?: string): Promise<PasswordAttempt> {
  const rules = ctx.config.rateLimits;
  if (deviceId !== undefined) {
    const deviceKey = `sign-in:device:${deviceId}`;
    const byDevice = await ctx.rateLimits.take(deviceKey, rules.signInFailures);
    if (!byDevice.allowed) throw tooManyRequests(byDevice, 'Too many failed sign-ins from this device.');
    return { forgive: () => ctx.rateLimits.refund(deviceKey, rules.signInFailures) };
  }
  const emailKey = `sign-in:email:${address}:${email}`;
  const addressKey = `sign-in:address:${address}`;
  const byEmail = await ctx.rateLimits.take(emailKey, rules.signInFailures);
  if (!byEmail.allowed) throw tooManyRequests(byEmail, 'Too many failed sign-ins for this email from this address.');
  const byAddress = await ctx.rateLimits.take(addressKey, rules.signInFailuresPerAddress);
  if (!byAddress.allowed) {
    await ctx.rateLimits.refund(emailKey, rules.signInFailures);
    throw tooManyRequests(byAddress, 'Too many failed sign-ins from this address.');
  }
  return {
    async forgive() {
      await Promise.all([ctx.rateLimits.refund(emailKey, rules.signInFailures), ctx.rateLimits.refund(addressKey, rules.signInFailuresPerAddress)]);
    },
  };
}

/**
 * Signing in (POST /api/session): a password check as above, and a sign-in that opens a session counts
 * in a bucket of its own per (email, address), or per known device (rateLimits.signIns, generous): each
 * costs a password check and a session row, so a right password cannot be replayed in a loop. Its token
 * is taken before the password is checked, and given back (`noSession`) when no session came of it.
 */
export async function startSignIn(ctx: ServerContext, email: string, address: string, deviceId: string | undefined): Promise<SignInAttempt> {
  const attempt = await startSignInAttempt(ctx, email, address, deviceId);
  const rule = ctx.config.rateLimits.signIns;
  const key = deviceId !== undefined ? `sign-in:ok:device:${deviceId}` : `sign-in:ok:${address}:${email}`;
  const decision = await ctx.rateLimits.take(key, rule);
  if (!decision.allowed) {
    await attempt.forgive();
    throw tooManyRequests(decision, 'Too many sign-ins for this email from here; wait a little before signing in again.');
  }
  return { forgive: attempt.forgive, noSession: () => ctx.rateLimits.refund(key, rule) };
}
