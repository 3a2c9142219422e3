import { hash } from 'node:crypto';
import type { RateRule } from '../config.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next call is allowed (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  rule: RateRule;
}

/** Keys longer than this are kept as their SHA-256, so that no key costs more than a few hundred bytes. */
const MAX_KEY_LENGTH = 200;
const DEFAULT_MAX_BUCKETS = 100_000;

/**
 * Token buckets in memory, one per key (token × method, or token × recipient). A burst on one key takes
 * nothing from another. Idle full buckets are dropped so that memory follows the active keys only, and
 * at most `maxBuckets` are kept: past that the least recently used goes first (it starts full again if
 * it comes back), so memory stays bounded whatever keys callers make up.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBuckets = DEFAULT_MAX_BUCKETS,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  take(rawKey: string, rule: RateRule): RateDecision {
    const key = boundedKey(rawKey);
    const now = this.now();
    this.sweep(now);
    const bucket = refill(this.buckets.get(key) ?? { tokens: rule.burst, updatedAt: now, rule }, now);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    // Deleted and set again so that the map's order is least recently used first.
    this.buckets.delete(key);
    if (this.buckets.size >= this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string);
    this.buckets.set(key, bucket);
    return rateDecision(allowed, bucket.tokens, rule);
  }

  /** Gives back a token taken by `take`, when a later check refused the call. */
  refund(key: string): void {
    const bucket = this.buckets.get(boundedKey(key));
    if (bucket) bucket.tokens = Math.min(bucket.rule.burst, bucket.tokens + 1);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (refill(bucket, now).tokens >= bucket.rule.burst) this.buckets.delete(key);
    }
  }
}

/** What a take answers, from whether it was allowed and the tokens left after it: the same for every backend. */
export function rateDecision(allowed: boolean, tokens: number, rule: RateRule): RateDecision {
  return {
    allowed,
    limit: rule.burst,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((rule.burst - tokens) / rule.rate),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rule.rate)),
  };
}

export const boundedKey = (key: string): string => (key.length > MAX_KEY_LENGTH ? `#${hash('sha256', key, 'base64url')}` : key);

function refill(bucket: Bucket, now: number): Bucket {
  const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
  return { tokens: Math.min(bucket.rule.burst, bucket.tokens + elapsed * bucket.rule.rate), updatedAt: now, rule: bucket.rule };
}
