import { routeRateClass, type RouteDefinition } from '@aviary/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../../context.js';
import type { UsersTable } from '../../store/schema.js';
import { takeRateLimits } from '../methodRateLimits.js';

/**
 * The /v1 limits for people: a bucket per signed-in person and route (all of a person's sessions share
 * it), in the route's rate class (reading is `read`; sending a message and acting on an app's buttons,
 * commands and widgets `message`; every other change `channel`). A route that sends to a recipient `to`
 * takes from the (person, recipient) bucket too. Keys are built from the person's id, the route's name
 * and a recipient that has the shape of a chat id; never from anything else the request says.
 */
export async function enforceRouteRateLimits(ctx: ServerContext, reply: FastifyReply, route: RouteDefinition, person: UsersTable, to: unknown): Promise<void> {
  const rateClass = routeRateClass(route);
  const rule = ctx.config.rateLimits[rateClass];
  const toRecipient = rateClass === 'message' && 'to' in route.params.properties;
  await takeRateLimits(ctx, reply, {
    key: `session:${person.id}:${route.name}`,
    rule,
    limited: `${route.verb} ${route.path} is limited to ${rule.rate} calls per second per person.`,
    ...(toRecipient ? { message: { owner: `session:${person.id}`, to, per: 'person' as const } } : {}),
  });
}
