import { Pool } from 'undici';

export interface LoadResult {
  /** Every request's latency in ms, sorted. */
  latencies: number[];
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

export interface LoadOptions {
  url: string;
  /** Requests in flight at once. */
  concurrency: number;
  durationMs: number;
  /** Builds request i: path, method, headers, body. */
  request: (i: number) => { path: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };
}

/** Keeps `concurrency` requests in flight for `durationMs` and records every latency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(options.url, { connections: options.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const spec = options.request(issued++);
      const t0 = performance.now();
      const response = await pool.request({ path: spec.path, method: spec.method ?? 'GET', headers: spec.headers, body: spec.body });
      await response.body.dump();
      latencies.push(performance.now() - t0);
      if (response.statusCode !== 200) failures++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return summarise(latencies, seconds, failures);
}

/** Several runs of one scenario as one: every request counted, percentiles over all of them. */
export function mergeLoads(results: readonly LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return summarise(results.flatMap((r) => r.latencies), sum((r) => r.seconds), sum((r) => r.failures));
}

function summarise(latencies: number[], seconds: number, failures: number): LoadResult {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { latencies, requests: latencies.length, seconds, perSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99), failures };
}

export const formatLoad = (r: LoadResult): string =>
  `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms (${r.requests} requests, ${r.failures} failed)`;
