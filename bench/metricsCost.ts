// What the request metrics cost each answered request: the onResponse hook's work (the route's label and
// one counter and one histogram observation, api/ops/requestMetrics.ts), timed over many calls.
import type { FastifyRequest } from 'fastify';
import { createServerMetrics } from '../packages/server/src/api/ops/metrics.js';
import { routeLabel } from '../packages/server/src/api/ops/requestMetrics.js';

/** Microseconds per answered request, over `iterations` requests of a few routes and statuses. */
export function benchMetricsCost(iterations = 200_000): number {
  const metrics = createServerMetrics();
  const requests = ['chat.sendMessage', 'chat.fetchMessages', 'reactions.add', 'no.suchMethod'].map(
    (method) => ({ routeOptions: { url: '/v1/:method' }, params: { method } }) as unknown as FastifyRequest,
  );
  const observe = (i: number) => metrics.observeRequest(routeLabel(requests[i % requests.length]), 'POST', i % 50 ? 200 : 429, 0.002);
  for (let i = 0; i < 10_000; i++) observe(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) observe(i);
  return Number(process.hrtime.bigint() - started) / 1000 / iterations;
}
