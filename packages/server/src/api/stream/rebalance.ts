// Spreading the streams again after a restart (docs/deploy.md, "Streams after a restart"). A stream stays
// on the process it opened on for hours, so after a rolling restart the last process holds nearly all of
// them, and a process restarted after a crash gets none back. Each process says in Redis how many streams
// it holds; one that holds more than its share tells some of them to reconnect (the `reconnect` frame,
// close code 1012) at moments spread over the round, and they open again through the load balancer.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from '../../redis.js';

/** A process that has not said how many streams it holds for this many rounds is gone. */
const ROUNDS_BEFORE_GONE = 3;

/**
 * How many of its `own` streams a process sheds this round, given what every live process holds (its
 * own count among them). Pure. It sheds only when it holds at least two more than its fair share (the
 * total over the processes, rounded up) and a tenth more, and then half of the excess: the streams it
 * sheds open again anywhere, this process included, so shedding the whole excess at once would
 * overshoot, and the rounds that follow take the rest.
 */
export function streamsToShed(own: number, counts: readonly number[]): number {
  if (counts.length < 2) return 0;
  const fair = Math.ceil(counts.reduce((sum, count) => sum + count, 0) / counts.length);
  const excess = own - fair;
  if (excess < evenEnough(fair)) return 0;
  return Math.ceil(excess / 2);
}

/** How far over its share a process may be and leave things as they are: a tenth, and at least 2. */
export function evenEnough(fair: number): number {
  return Math.max(2, Math.ceil(fair / 10));
}

export interface StreamShedder {
  openConnections(): number;
  /** Tells `count` streams to reconnect, each at a random moment within `spreadMs`. */
  shed(count: number, spreadMs: number): void;
}

/** Every `intervalMs`: say how many streams this process holds, read the others', shed what is too many. */
export class StreamBalancer {
  private readonly processId = randomBytes(8).toString('hex');
  private readonly key: string;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Whether the last round shed streams: the round that sheds none after it says the load is even. */
  private shedding = false;

  constructor(
    private readonly options: { redis: Redis; keyPrefix: string; intervalMs: number; now: () => number; log: FastifyBaseLogger },
    private readonly gateway: StreamShedder,
  ) {
    this.key = `${options.keyPrefix}stream-load`;
  }

  start(): void {
    this.timer = setInterval(() => void this.round(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One round; errors (Redis away) are logged, and the next round tries again. */
  async round(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const own = this.gateway.openConnections();
      const counts = await this.report(own);
      const shed = streamsToShed(own, counts);
      this.options.log.debug({ own, counts, shed }, 'stream load');
      const shedBefore = this.shedding;
      this.shedding = shed > 0;
      if (shed === 0) {
        if (shedBefore) this.options.log.info({ own, processes: counts.length, total: counts.reduce((sum, count) => sum + count, 0) }, 'stream load even');
        return;
      }
      this.options.log.info({ own, processes: counts.length, total: counts.reduce((sum, count) => sum + count, 0), shed }, 'shedding streams to even the load');
      // Spread over half a round: the clients do not all come back at once, and the next round sees them.
      this.gateway.shed(shed, this.options.intervalMs / 2);
    } catch (error) {
      this.options.log.warn({ err: error }, 'the stream load could not be compared');
    } finally {
      this.running = false;
    }
  }

  /** Writes this process's count and reads every live process's; the entries of gone processes are removed. */
  private async report(own: number): Promise<number[]> {
    const { redis, now, intervalMs } = this.options;
    const at = now();
    await redis.hset(this.key, this.processId, JSON.stringify({ count: own, at }));
    const entries = await redis.hgetall(this.key);
    const counts: number[] = [];
    const gone: string[] = [];
    for (const [processId, value] of Object.entries(entries)) {
      const entry = parseEntry(value);
      if (!entry || entry.at < at - ROUNDS_BEFORE_GONE * intervalMs) gone.push(processId);
      else counts.push(entry.count);
    }
    if (gone.length > 0) await redis.hdel(this.key, ...gone);
    return counts;
  }

  /** Stops the rounds and takes this process out of the others' comparison. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.options.redis.hdel(this.key, this.processId).catch(() => undefined);
  }
}

function parseEntry(value: string): { count: number; at: number } | undefined {
  try {
    const entry = JSON.parse(value) as { count?: unknown; at?: unknown };
    return typeof entry.count === 'number' && typeof entry.at === 'number' ? { count: entry.count, at: entry.at } : undefined;
  } catch {
    return undefined;
  }
}
