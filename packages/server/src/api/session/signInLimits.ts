import type { ServerContext } from '../../context.js';
import { tooManyRequests } from '../methodRateLimits.js';

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
export async function startSignInAttempt(ctx: ServerContext, email: string, address: string, deviceId?: string): Promise<{ forgive(): Promise<void> }> {
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
