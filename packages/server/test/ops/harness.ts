import pino from 'pino';
import type { ConfigInput } from '../../src/config.js';
import { redisScratch, redisTestUrl, type RateLimitBackend, type RedisScratch } from '../helpers/redis.js';
import { startTestServer, stopTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger whose JSON lines a test reads (`lines`), and a promise for the first line that matches. */
export function capturedLog() {
  const lines: LogLine[] = [];
  const waiting: Array<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  const log = pino({ level: 'info' }, {
    write(text: string) {
      const line = JSON.parse(text) as LogLine;
      lines.push(line);
      for (const waiter of waiting.filter((candidate) => candidate.match(line))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    },
  });
  return {
    log,
    lines,
    /** Resolves with the first line (already written or to come) whose message matches. */
    next(pattern: RegExp): Promise<LogLine> {
      const match = (line: LogLine) => pattern.test(line.msg);
      const seen = lines.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
  };
}

export const WARN = 40;

export interface OpsServer {
  t: TestServer;
  /** The Redis corner of this server (its key prefix), with the redis backend. */
  scratch?: RedisScratch;
  stop(): Promise<void>;
}

/** A test server (SQLite) whose rate limits are kept by `backend`: in memory, or in the test Redis under a prefix of its own. */
export async function startWithBackend(backend: RateLimitBackend, config: ConfigInput = {}, options: TestServerOptions = {}): Promise<OpsServer> {
  const scratch = backend === 'redis' ? redisScratch() : undefined;
  const t = await startTestServer('sqlite', { ...config, ...(scratch ? { redisUrl: redisTestUrl, redisKeyPrefix: scratch.prefix } : {}) }, options);
  return {
    t,
    scratch,
    async stop() {
      await stopTestServer(t);
      await scratch?.cleanUp();
    },
  };
}
