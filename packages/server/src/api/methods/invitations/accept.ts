import { api } from '@aviary/protocol';
import { acceptInvitation } from '../../../core/commands/invitations.js';
import { defineHandler } from '../../handler.js';
import { tooManyRequests } from '../../methodRateLimits.js';

/**
 * Anyone holding the link signs up; besides the dispatcher's per-address budget, sign-ups from one
 * address are limited as failed sign-ins are (rateLimits.signInFailuresPerAddress), since each costs a
 * password hash and makes an account.
 */
export default defineHandler(api.invitations.accept, async (params, { clientAddress }, ctx) => {
  const decision = await ctx.rateLimits.take(`sign-up:address:${clientAddress}`, ctx.config.rateLimits.signInFailuresPerAddress);
  if (!decision.allowed) throw tooManyRequests(decision, 'Too many sign-ups from this address.');
  const signedUp = await acceptInvitation(ctx, { address: clientAddress }, params);
  return signedUp;
});
