import { routeRateClass, type RouteDefinition } from '@aviary/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../../context.js';
import type { UsersTable } from '../../store/schema.js';
import { takeRateLimits } from '../methodRateLimits.js';

/**
 * The /v1 limits for people: a bucket per signed-in person and route (all of a person's sessions share
 * it), in the route's rate class (reading is `read`, every change `channel`). Keys are built from the
 * person's id and the route's name, never from anything the request says.
 */
export async function enforceRouteRateLimits(ctx: ServerContext, reply: FastifyReply, route: RouteDefinition, person: UsersTable): Promise<void> {
  const rule = ctx.config.rateLimits[routeRateClass(route)];
  await takeRateLimits(ctx, reply, {
    key: `session:${person.id}:${route.name}`,
    rule,
    limited: `${route.verb} ${route.path} is limited to ${rule.rate} calls per second per person.`,
  });
}
