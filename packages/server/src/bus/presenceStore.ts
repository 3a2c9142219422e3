import type { Redis } from 'ioredis';

/**
 * Who of a team is online, shared by the server's processes: each holds the people with a stream open
 * on it until a time (a lease it renews), and a person is online while anyone holds them. Nothing here
 * is of record: lost, it is rebuilt by the next renewal.
 */
export interface PresenceStore {
  /** Holds these people until `until`; answers those nobody held before (who just came online). */
  hold(teamId: string, userIds: readonly string[], until: number): Promise<string[]>;
  /** Lets go of everyone whose hold ran out by `now`; answers them, each to one caller only (who went away). */
  expire(teamId: string, now: number): Promise<string[]>;
  /** Everyone held past `now`. */
  online(teamId: string, now: number): Promise<string[]>;
}

/** One process: the holds in memory. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly teams = new Map<string, Map<string, number>>();

  async hold(teamId: string, userIds: readonly string[], until: number): Promise<string[]> {
    let held = this.teams.get(teamId);
    if (!held) this.teams.set(teamId, (held = new Map()));
    const fresh: string[] = [];
    for (const userId of userIds) {
      const before = held.get(userId);
      if (before === undefined) fresh.push(userId);
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
 * Several processes: one sorted set per team (`<prefix>presence:<teamId>`), a member per person scored
 * by the end of their hold. ZADD GT only ever extends a hold and answers 1 to one process only, and the
 * expiry is one script (EXPIRE_LAPSED), so exactly one process announces each arrival and each departure,
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

  async hold(teamId: string, userIds: readonly string[], until: number): Promise<string[]> {
    if (userIds.length === 0) return [];
    const key = this.key(teamId);
    const pipeline = this.redis.pipeline();
    for (const userId of userIds) pipeline.zadd(key, 'GT', until, userId);
    pipeline.pexpire(key, this.keepMs);
    const answers = (await pipeline.exec()) ?? [];
    return userIds.filter((_, i) => {
      const [error, added] = answers[i] ?? [];
      if (error) throw error;
      return added === 1;
    });
  }

  async expire(teamId: string, now: number): Promise<string[]> {
    return (await this.redis.eval(EXPIRE_LAPSED, 1, this.key(teamId), now)) as string[];
  }

  async online(teamId: string, now: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.key(teamId), `(${now}`, '+inf');
  }
}
