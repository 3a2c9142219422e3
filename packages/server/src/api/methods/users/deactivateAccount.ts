import { api } from '@aviary/protocol';
import { currentPasswordIs } from '../../../core/passwords.js';
import { deactivateOwnAccount } from '../../../core/commands/deactivateAccount.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { startSignInAttempt } from '../../session/signInLimits.js';

/** The password is checked as users.changePassword checks it, against the sign-in limits. */
export default defineHandler(api.users.deactivateAccount, async ({ password }, { user, clientAddress }, ctx) => {
  const attempt = await startSignInAttempt(ctx, user.email ?? user.id, clientAddress);
  if (!(await currentPasswordIs(user, password))) {
    const orAdmin = user.password_hash === null ? ' Your account has no password (you sign in with single sign-on): ask a team admin to deactivate it.' : '';
    throw invalidParameter('password', `password is not your current password.${orAdmin}`);
  }
  await attempt.forgive();
  await deactivateOwnAccount(ctx, { person: user, address: clientAddress }, {});
  return {};
});
