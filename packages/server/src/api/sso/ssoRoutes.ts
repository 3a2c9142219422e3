import { maxEmailLength } from '@aviary/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { ATTEMPT_LIFETIME_MS, beginSsoSignIn, finishSsoSignIn, type SsoContext, type SsoRefusal } from '../../core/signIn/ssoSignIn.js';
import { signInChoices, ssoTeamOfEmail } from '../../core/signIn/settings.js';
import { clientAddressOf } from '../callerOf.js';
import { cookie, requestCookie, sessionCookie } from '../session/sessionToken.js';

/** Where single sign-on starts (`?team=` a team id, `?email=` a work email, or neither when one team offers it) and where the provider sends the browser back. */
export const SSO_START_PATH = '/api/sso/start';
export const SSO_CALLBACK_PATH = '/api/sso/callback';
/** Binds an attempt to the browser that began it: only that browser's callback can finish it. */
const ATTEMPT_COOKIE = 'aviary_sso';
const TEAM_ID = /^t:[a-z2-7]{16}$/;

/**
 * Single sign-on by OpenID Connect (authorization code with PKCE), as browser navigations: start sends
 * the browser to the provider, the callback signs the person in and goes home. Every refusal lands on
 * the sign-in page with `?sso=` its reason, which the page explains (docs/security.md, "Single sign-on").
 */
export function registerSsoRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Querystring: { team?: unknown; email?: unknown } }>(SSO_START_PATH, async (request, reply) => {
    const address = clientAddressOf(ctx.config)(request);
    const rule = ctx.config.rateLimits.channel;
    if (!(await ctx.rateLimits.take(`sso:start:${address}`, rule)).allowed) return refuse(reply, 'busy');
    const teamId = await teamToStart(ctx, request.query);
    if (teamId === 'several') return refuse(reply, 'severalTeams');
    if (!teamId) return refuse(reply, 'notConfigured');
    let begun: Awaited<ReturnType<typeof beginSsoSignIn>>;
    try {
      begun = await beginSsoSignIn(ssoContext(ctx, request), teamId, ssoCallbackUrl(ctx));
    } catch (error) {
      ctx.log.warn({ err: error, teamId }, 'single sign-on could not reach the provider');
      return refuse(reply, 'unreachable');
    }
    if ('refusal' in begun) return refuse(reply, begun.refusal);
    reply.header('set-cookie', attemptCookie(ctx, begun.browserValue, ATTEMPT_LIFETIME_MS / 1000));
    return reply.code(303).header('location', begun.url.href).header('cache-control', 'no-store').send();
  });

  app.get(SSO_CALLBACK_PATH, async (request, reply) => {
    // The URL the provider sent the browser to, on the base it was given as redirect_uri.
    const url = new URL(request.url, ssoCallbackUrl(ctx));
    const outcome = await finishSsoSignIn(ssoContext(ctx, request), url, requestCookie(request, ATTEMPT_COOKIE));
    reply.header('set-cookie', attemptCookie(ctx, '', 0));
    if (outcome.outcome === 'refused') return refuse(reply, outcome.refusal);
    reply.header('set-cookie', sessionCookie(ctx.config, outcome.sessionToken));
    return reply.code(303).header('location', '/').header('cache-control', 'no-store').send();
  });
}

function ssoContext(ctx: ServerContext, request: FastifyRequest): SsoContext {
  const userAgent = request.headers['user-agent'];
  return { db: ctx.db, keyring: ctx.store.keyring, envProvider: ctx.config.oidc, guard: ctx.events.agent, now: ctx.now(), clientAddress: clientAddressOf(ctx.config)(request), userAgent };
}

/** The team named, when it offers single sign-on; the team of the work email given; without either, the only team that does. */
async function teamToStart(ctx: ServerContext, query: { team?: unknown; email?: unknown }): Promise<string | 'several' | undefined> {
  const { teams } = await signInChoices(ctx.db, ctx.config.oidc);
  if (typeof query.team === 'string' && TEAM_ID.test(query.team)) return teams.find((candidate) => candidate.id === query.team)?.id;
  if (typeof query.email === 'string' && query.email.length <= maxEmailLength && query.email.includes('@')) return ssoTeamOfEmail(ctx.db, teams, query.email);
  return query.team === undefined && query.email === undefined && teams.length === 1 ? teams[0].id : undefined;
}

/** The redirect URI registered at the provider: the public URL's, else the address the server listens on. */
export const ssoCallbackUrl = (ctx: ServerContext): string => new URL(SSO_CALLBACK_PATH, ctx.config.publicUrl ?? ctx.listeningUrl).href;

/** Lax, not Strict: the provider's redirect back is a navigation from another site, which must carry it. */
const attemptCookie = (ctx: ServerContext, value: string, maxAgeSeconds: number): string =>
  cookie(ctx.config, ATTEMPT_COOKIE, value, ['Path=/api/sso', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`]);

const refuse = (reply: FastifyReply, refusal: SsoRefusal | 'busy' | 'unreachable' | 'severalTeams'): FastifyReply =>
  reply.code(303).header('location', `/signin?sso=${refusal}`).header('cache-control', 'no-store').send();
