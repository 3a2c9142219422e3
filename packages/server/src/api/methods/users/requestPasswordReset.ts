import { api } from '@aviary/protocol';
import { mailPasswordResets } from '../../../core/commands/accountLinks.js';
import { ApiError, invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { tooManyRequests } from '../../methodRateLimits.js';

/**
 * Answers `{}` at once whether or not the email has an account: the look-up and the mail are background
 * work, so neither the answer nor its time tells. Requests are limited per address (the dispatcher) and
 * per email (rateLimits.signInFailures), so nobody can fill a mailbox.
 */
export default defineHandler(api.users.requestPasswordReset, async ({ email: given }, { clientAddress }, ctx) => {
  if (ctx.config.smtpUrl === undefined) throw new ApiError('MailNotConfigured', 'This server sends no mail, so passwords are not reset by email here; ask a team admin to reset yours.');
  const email = given.trim().toLowerCase();
  if (!email.includes('@')) throw invalidParameter('email', 'email must be an email address such as ada@example.com.');
  const decision = await ctx.rateLimits.take(`password-reset:email:${email}`, ctx.config.rateLimits.signInFailures);
  if (!decision.allowed) throw tooManyRequests(decision, 'Too many password resets asked for this email.');
  ctx.background.run('password reset mail', () => mailPasswordResets(ctx, { address: clientAddress }, { email }));
  return {};
});
