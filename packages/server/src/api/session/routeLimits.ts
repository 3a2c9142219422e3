import type { RateClass } from '@aviary/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import type { UsersTable } from '../../store/schema.js';
import { takeRateLimits } from '../methodRateLimits.js';

const SEND_MESSAGE_ROUTE = '/api/client/messages';

/**
 * Which of the /v1 rate classes (config.rateLimits) a client or developer API route counts against:
 * reading is `read`; sending a message and acting on an app's buttons, commands and widgets is
 * `message`, as chat.sendMessage is; every other change (installs, app settings, replays) is `channel`.
 */
export function routeRateClass(method: string, route: string): RateClass {
  if (method === 'GET' || method === 'HEAD') return 'read';
  if (route === SEND_MESSAGE_ROUTE || route.startsWith('/api/client/actions/')) return 'message';
  return 'channel';
}

/**
 * The /v1 limits for people: a bucket per signed-in person and route (all of a person's sessions share
 * it), and for messages also one per (person, recipient), with the same X-RateLimit-* headers and
 * TooManyRequests + Retry-After. Keys are built from the person's id, the route's registered pattern
 * and a recipient that has the shape of a chat id; never from anything else the request says.
 */
export async function enforceSessionRateLimits(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, person: UsersTable): Promise<void> {
  const route = request.routeOptions.url ?? '';
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const rule = ctx.config.rateLimits[routeRateClass(method, route)];
  const sendsMessage = method === 'POST' && route === SEND_MESSAGE_ROUTE;
  await takeRateLimits(ctx, reply, {
    key: `session:${person.id}:${method} ${route}`,
    rule,
    limited: `${method} ${route} is limited to ${rule.rate} calls per second per person.`,
    ...(sendsMessage ? { message: { owner: `session:${person.id}`, to: (request.body as { to?: unknown } | undefined)?.to, per: 'person' as const } } : {}),
  });
}
