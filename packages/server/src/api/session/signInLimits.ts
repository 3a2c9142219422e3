import type { ServerContext } from '../../context.js';
import { tooManyRequests } from '../methodRateLimits.js';

/**
 * Failed sign-ins are limited per (email, client address) (rateLimits.signInFailures) and per client
 * address (rateLimits.signInFailuresPerAddress), never per email alone: an attacker guessing one
 * person's password is slowed down, but cannot lock that person out, who signs in from another address.
 *
 * An attempt takes a token from both buckets and gets them back (`forgive`) unless the password was
 * wrong, so only failures count. While either bucket is empty every attempt from there gets
 * TooManyRequests, the right password included, or guessing could simply go on. The email in the key
 * has been checked for length and shape, and the address is a plain IP address.
 */
export function startSignInAttempt(ctx: ServerContext, email: string, address: string): { forgive(): void } {
  const rules = ctx.config.rateLimits;
  const emailKey = `sign-in:email:${address}:${email}`;
  const addressKey = `sign-in:address:${address}`;
  const byEmail = ctx.rateLimits.take(emailKey, rules.signInFailures);
  if (!byEmail.allowed) throw tooManyRequests(byEmail, 'Too many failed sign-ins for this email from this address.');
  const byAddress = ctx.rateLimits.take(addressKey, rules.signInFailuresPerAddress);
  if (!byAddress.allowed) {
    ctx.rateLimits.refund(emailKey);
    throw tooManyRequests(byAddress, 'Too many failed sign-ins from this address.');
  }
  return {
    forgive() {
      ctx.rateLimits.refund(emailKey);
      ctx.rateLimits.refund(addressKey);
    },
  };
}
