import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { outboxStats } from '../../events/outbox/stats.js';
import { ApiError } from '../errors.js';
import { bearerToken } from '../session/sessionToken.js';
import { MAX_APP_SERIES } from './metrics.js';
import { readinessCheck } from './readiness.js';
import { singleFlight } from './singleFlight.js';

/**
 * What operators and load balancers call (docs/operations.md): GET /healthz (the process answers),
 * GET /readyz (the store and Redis answer), GET /metrics (Prometheus). No session, no rate limit: each
 * costs at most one trivial query per dependency, and callers that come at once share one check.
 */
export function registerOpsRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  const ready = readinessCheck(ctx);
  app.get('/readyz', async (_request, reply) => {
    const { ready: isReady, checks } = await ready();
    return reply.code(isReady ? 200 : 503).send({ status: isReady ? 'ok' : 'unavailable', checks });
  });

  const allowed = metricsAccess(ctx.config.metricsToken);
  const scrape = singleFlight(async () => {
    ctx.metrics.setOutbox(await outboxStats(ctx.db, ctx.now(), MAX_APP_SERIES));
    return ctx.metrics.render();
  });
  app.get('/metrics', async (request, reply) => {
    if (!allowed(request)) throw new ApiError('InvalidToken', 'GET /metrics needs Authorization: Bearer with the token set in AVIARY_METRICS_TOKEN.');
    return reply.type(ctx.metrics.contentType).send(await scrape());
  });
}

/** Without a token, anyone may read the metrics; with one, only a request that carries it. */
function metricsAccess(token: string | undefined): (request: FastifyRequest) => boolean {
  if (token === undefined) return () => true;
  // Compared as digests, in constant time: the comparison says nothing about how much of a guess was right.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(token);
  return (request) => {
    const given = bearerToken(request);
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
}
