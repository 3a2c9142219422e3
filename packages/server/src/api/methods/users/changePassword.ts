import { api } from '@aviary/protocol';
import { changePassword } from '../../../core/commands/accounts.js';
import { currentPasswordIs } from '../../../core/passwords.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { startSignInAttempt } from '../../session/signInLimits.js';

/**
 * The current password is checked as signing in checks one, and a wrong one counts against the same
 * limits (signInLimits.ts), so a stolen session cannot guess it faster than sign-in could.
 */
export default defineHandler(api.users.changePassword, async ({ currentPassword, newPassword }, { user, sessionHash, clientAddress }, ctx) => {
  const attempt = await startSignInAttempt(ctx, user.email ?? user.id, clientAddress);
  if (!(await currentPasswordIs(user, currentPassword))) {
    throw invalidParameter('currentPassword', 'currentPassword is not your current password.');
  }
  await attempt.forgive();
  const endedSessions = await changePassword(ctx, { person: user, sessionHash, address: clientAddress }, { newPassword });
  return { endedSessions };
});
