import { sql } from 'kysely';
import type { ServerContext } from '../../context.js';
import { singleFlight } from './singleFlight.js';

export type CheckResult = 'ok' | 'down';

export interface Readiness {
  ready: boolean;
  /** `store`, and `redis` when REDIS_URL is set. */
  checks: Record<string, CheckResult>;
}

/** A dependency that does not answer within this is down as far as a load balancer should care. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Whether this process can serve: the store answers `select 1` and, when it is configured, Redis
 * answers PING. The answer names each dependency's state but not its error (it is public; the log has
 * the error, written when a dependency goes down rather than at every probe).
 */
export function readinessCheck(ctx: Pick<ServerContext, 'db' | 'redis' | 'log'>): () => Promise<Readiness> {
  const dependencies: Record<string, () => Promise<unknown>> = { store: () => sql`select 1`.execute(ctx.db) };
  if (ctx.redis) {
    const redis = ctx.redis;
    dependencies.redis = () => redis.ping();
  }
  const down = new Set<string>();
  return singleFlight(async () => {
    const names = Object.keys(dependencies);
    const results = await Promise.all(names.map((name) => withTimeout(dependencies[name]()).then(() => undefined, (error: unknown) => error)));
    const checks: Record<string, CheckResult> = {};
    names.forEach((name, index) => {
      const error = results[index];
      checks[name] = error === undefined ? 'ok' : 'down';
      if (error !== undefined && !down.has(name)) ctx.log.warn({ err: error, dependency: name }, `not ready: ${name} does not answer`);
      if (error === undefined) down.delete(name);
      else down.add(name);
    });
    return { ready: Object.values(checks).every((check) => check === 'ok'), checks };
  });
}

function withTimeout(promise: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
