import type { Redis } from 'ioredis';

/**
 * Who of a team is online, shared by the server's processes: each holds the people with a stream open
 * on it until a time (a lease it renews), and a person is online while anyone holds them. Nothing here
 * is of record: lost, it is rebuilt by the next renewal.
 */
export interface PresenceStore {
  /**
   * Holds these people until `until`; answers those nobody held at `now` (who just came online): nobody
   * held them before, or their hold had lapsed by `now` and was not yet let go of (a reconnect after the
   * lease, before the sweep, is coming online).
   */
  hold(teamId: string, userIds: readonly string[], until: number, now: number): Promise<string[]>;
  /** Lets go of everyone whose hold ran out by `now`; answers them, each to one caller only (who went away). */
  expire(teamId: string, now: number): Promise<string[]>;
  /** Everyone held past `now`. */
  online(teamId: string, now: number): Promise<string[]>;
}

/** One process: the holds in memory. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly teams = new Map<string, Map<string, number>>();

  async hold(teamId: string, userIds: readonly string[], until: number, now: number): Promise<string[]> {
    let held = this.teams.get(teamId);
    if (!held) this.teams.set(teamId, (held = new Map()));
    const fresh: string[] = [];
    for (const userId of userIds) {
      const before = held.get(userId);
      if (before === undefined || before <= now) fresh.push(userId);
      held.set(userId, Math.max(before ?? 0, until));
    }
    return fresh;
  }

  async expire(teamId: string, now: number): Promise<string[]> {
    const held = this.teams.get(teamId);
    if (!held) return [];
    // No await between the look and the removal: a renewal runs wholly before or after, as on Redis.
    const gone: string[] = [];
    for (const [userId, until] of held) {
      if (until > now) continue;
      held.delete(userId);
      gone.push(userId);
    }
    if (held.size === 0) this.teams.delete(teamId);
    return gone;
  }

  async online(teamId: string, now: number): Promise<string[]> {
    return [...(this.teams.get(teamId) ?? [])].filter(([, until]) => until > now).map(([userId]) => userId);
  }
}

/**
 * Finds the lapsed holds and removes them in one step: Redis runs a script alone, so a renewal lands
 * either before it (the hold is no longer lapsed) or after it (the person comes online again), never
 * between the look and the removal, where it would be removed with the hold it renewed.
 */
const EXPIRE_LAPSED = `
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return lapsed`;

/**
 * Holds each person (ARGV[4…]) until ARGV[1], only ever extending a hold, answers those whose hold was
 * missing or had lapsed by ARGV[2], and keeps the set ARGV[3] ms: one script, so that one process only
 * announces each arrival.
 */
const HOLD = `
local fresh = {}
for i = 4, #ARGV do
  local before = redis.call('ZSCORE', KEYS[1], ARGV[i])
  redis.call('ZADD', KEYS[1], 'GT', ARGV[1], ARGV[i])
  if not before or tonumber(before) <= tonumber(ARGV[2]) then fresh[#fresh + 1] = ARGV[i] end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return fresh`;
const HOLD_SLICE = 500;

/**
 * Several processes: one sorted set per team (`<prefix>presence:<teamId>`), a member per person scored
 * by the end of their hold. A hold is one script (HOLD) that only ever extends a hold and answers an arrival
 * to one process only, and the expiry is one script (EXPIRE_LAPSED), so exactly one process announces each arrival and each departure,
 * and a renewal is never undone by an expiry that read the hold before it. The set expires when no
 * process has renewed anything in it for a while.
 */
export class RedisPresenceStore implements PresenceStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    /** How long a team's set outlives its last renewal. */
    private readonly keepMs: number,
  ) {}

  private key(teamId: string): string {
    return `${this.keyPrefix}presence:${teamId}`;
  }

  async hold(teamId: string, userIds: readonly string[], until: number, now: number): Promise<string[]> {
    const fresh: string[] = [];
    // In slices, so that one script never holds Redis long however many people a process holds.
    for (let start = 0; start < userIds.length; start += HOLD_SLICE) {
      const slice = userIds.slice(start, start + HOLD_SLICE);
      fresh.push(...((await this.redis.eval(HOLD, 1, this.key(teamId), until, now, this.keepMs, ...slice)) as string[]));
    }
    return fresh;
  }

  async expire(teamId: string, now: number): Promise<string[]> {
    return (await this.redis.eval(EXPIRE_LAPSED, 1, this.key(teamId), now)) as string[];
  }

  async online(teamId: string, now: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.key(teamId), `(${now}`, '+inf');
  }
}
