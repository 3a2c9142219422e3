import { maxEmailLength, sessionRoutes } from '@aviary/protocol';
import { signIn } from '../../../core/commands/sessions.js';
import { presentUser } from '../../../core/presenters/users.js';
import { teamAndStreamPosition } from '../../../core/queries/stream.js';
import { ApiError, invalidParameter } from '../../errors.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { deviceCookie, DEVICE_COOKIE, knownDevice } from '../deviceCookie.js';
import { startSignIn } from '../signInLimits.js';
import { sessionCookie } from '../sessionToken.js';
import { recordAudit } from '../../../core/audit/record.js';

/**
 * Answers the session token and sets the cookie. An email with accounts in several teams whose password
 * opens more than one gets TeamRequired with those teams, and signs in again naming one. Only failures
 * count against the sign-in limits (signInLimits.ts), besides a generous limit on sign-ins that open a
 * session; a browser that signed in gets a device cookie, which lets its next sign-ins through a lockout
 * of its address (deviceCookie.ts).
 */
export default defineRouteHandler(sessionRoutes.signIn, async ({ email: given, password, teamId }, ctx, exchange) => {
  const email = given.trim().toLowerCase();
  // The email becomes part of a limiter key: checked before anything else is done with it.
  if (!email.includes('@')) throw invalidParameter('email', `email must be an email address of at most ${maxEmailLength} characters.`);
  const device = knownDevice(ctx, exchange.cookie(DEVICE_COOKIE), email);
  const attempt = await startSignIn(ctx, email, exchange.clientAddress(), device);
  const result = await signIn(ctx, { userAgent: exchange.userAgent(), clientAddress: exchange.clientAddress() }, { email, password, teamId }).catch(async (error: unknown) => {
    await Promise.all([attempt.forgive(), attempt.noSession()]);
    throw error;
  });
  if (result.outcome !== 'signedIn') await attempt.noSession();
  if (result.outcome === 'wrongCredentials') {
    // Recorded after the answer, so that a wrong password for an account costs no more time than an unknown email.
    const failure = { actor: { userId: null, address: exchange.clientAddress() }, at: ctx.now(), action: 'session.signInFailed' };
    for (const account of result.accounts) ctx.background.run('audit of a failed sign-in', () => recordAudit(ctx.db, { ...failure, teamId: account.team_id, target: { kind: 'user', id: account.id } }));
    throw new ApiError('InvalidCredentials');
  }
  await attempt.forgive();
  if (result.outcome === 'passwordOff') {
    throw new ApiError('PasswordSignInOff', 'Your team signs in through its single sign-on provider only: use the sign-on button on the sign-in page. An operator can switch passwords back on with `aviary team sign-in --password on`.');
  }
  if (result.outcome === 'chooseTeam') {
    throw new ApiError('TeamRequired', 'This email and password open accounts in several teams; sign in again with teamId set to one of teams.', { teams: result.teams });
  }
  exchange.setHeader('set-cookie', sessionCookie(ctx.config, result.sessionToken));
  exchange.setHeader('set-cookie', deviceCookie(ctx, email, device));
  // The team and stream position too, so that the web client need not ask GET /api/session before loading.
  return { sessionToken: result.sessionToken, user: presentUser(result.user, ctx.now()), ...(await teamAndStreamPosition(ctx.db, result.user.team_id)) };
});
