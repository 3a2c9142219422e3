import { afterAll, describe, expect, it } from 'vitest';
import { MemoryPresenceStore, RedisPresenceStore, type PresenceStore } from '../../src/bus/presenceStore.js';
import { redisAvailable, redisScratch, type RedisScratch } from '../helpers/redis.js';

const team = 't:presence';
const ann = 'u:aaaaaaaaaaaaaaaa';
const ben = 'u:bbbbbbbbbbbbbbbb';

const scratches: RedisScratch[] = [];
afterAll(async () => {
  for (const scratch of scratches) await scratch.cleanUp();
});

const variants: Array<[string, () => PresenceStore]> = [['memory', () => new MemoryPresenceStore()]];
if (redisAvailable) {
  variants.push([
    'redis',
    () => {
      const scratch = redisScratch();
      scratches.push(scratch);
      return new RedisPresenceStore(scratch.redis, scratch.prefix, 60_000);
    },
  ]);
}

describe.each(variants)('presence store (%s)', (_name, makeStore) => {
  it('answers each arrival once, and each departure once, to whoever made it', async () => {
    const store = makeStore();
    expect(await store.hold(team, [ann, ben], 1_000, 0)).toEqual([ann, ben]);
    expect(await store.hold(team, [ann], 2_000, 500)).toEqual([]);
    expect(await store.online(team, 1_500)).toEqual([ann]);
    const [first, second] = await Promise.all([store.expire(team, 1_500), store.expire(team, 1_500)]);
    expect([...first, ...second]).toEqual([ben]);
    expect(await store.online(team, 1_500)).toEqual([ann]);
  });

  it('lets a renewal that arrives while an expiry runs win: the person is never taken away after being held again', async () => {
    const store = makeStore();
    await store.hold(team, [ann], 1_000, 0);
    // Both start before either is answered: on Redis, on one connection, the renewal's ZADD reaches the
    // server between whatever the expiry sends, as when another process renews at that moment.
    const expiring = store.expire(team, 1_000);
    const renewing = store.hold(team, [ann], 46_000, 1_000);
    const [gone, fresh] = await Promise.all([expiring, renewing]);
    expect(await store.online(team, 1_000)).toEqual([ann]);
    // Either the expiry came first (away, then online again) or the renewal did (the lapsed hold renewed:
    // online again, never taken away).
    expect({ gone, fresh }).toEqual(gone.length > 0 ? { gone: [ann], fresh: [ann] } : { gone: [], fresh: [ann] });
  });

  it('answers a hold renewed after it lapsed, before any expiry let go of it, as an arrival', async () => {
    const store = makeStore();
    expect(await store.hold(team, [ann, ben], 1_000, 0)).toEqual([ann, ben]);
    // Ann's stream came back after her lease, before the sweep: she comes online again. Ben's is still held.
    expect(await store.hold(team, [ann, ben], 50_000, 900)).toEqual([]);
    expect(await store.hold(team, [ann], 100_000, 60_000)).toEqual([ann]);
    expect(await store.expire(team, 60_000)).toEqual([ben]);
    expect(await store.online(team, 60_000)).toEqual([ann]);
  });

  it('holds many people at once, each arrival answered once', async () => {
    const store = makeStore();
    const many = Array.from({ length: 1_200 }, (_, i) => `u:${String(i).padStart(16, 'a')}`);
    expect(await store.hold(team, many, 1_000, 0)).toEqual(many);
    expect(await store.hold(team, many, 2_000, 500)).toEqual([]);
    expect((await store.online(team, 1_500)).length).toBe(1_200);
  });
});
