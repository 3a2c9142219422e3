import { describe, expect, it } from 'vitest';
import { LaneScheduler, type LaneEvent, type LaneSettings } from '../../src/events/delivery/laneScheduler.js';

const settings: LaneSettings = { laneConcurrency: 2, laneMaxConcurrency: 8, laneWidenBelowMs: 100, readAheadPerApp: 10 };

/** `count` due events of `app`, oldest first: a-1, a-2, … */
const dueOf = (app: string, count: number): LaneEvent[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${app}-${i + 1}`, app_id: app }));

/** Picks `free` events and starts each of them, as the worker does after a successful claim. */
function pickAndStart(scheduler: LaneScheduler, free: number, now = 0) {
  return scheduler.pick(free).map((event) => ({ event, lane: scheduler.started(event.app_id, now) }));
}

describe('LaneScheduler', () => {
  it('gives each app no more than its lane allows, so a slow app cannot take every slot', () => {
    const scheduler = new LaneScheduler(settings);
    scheduler.learn([...dueOf('a', 5), ...dueOf('b', 5)], [], 0);

    const picked = scheduler.pick(100);

    expect(picked.filter((event) => event.app_id === 'a').map((event) => event.id)).toEqual(['a-1', 'a-2']);
    expect(picked.filter((event) => event.app_id === 'b').map((event) => event.id)).toEqual(['b-1', 'b-2']);
  });

  it('takes turns among the apps when there are fewer free slots than lanes with room', () => {
    const scheduler = new LaneScheduler({ ...settings, laneConcurrency: 1 });
    scheduler.learn([...dueOf('a', 3), ...dueOf('b', 3), ...dueOf('c', 3)], [], 0);

    const firstApps = [0, 1, 2].map(() => scheduler.pick(1)[0].app_id);

    expect(new Set(firstApps)).toEqual(new Set(['a', 'b', 'c']));
  });

  it('keeps a lane full while attempts are in flight, and frees the slot when one finishes', () => {
    const scheduler = new LaneScheduler(settings);
    scheduler.learn(dueOf('a', 5), [], 0);
    const [first] = pickAndStart(scheduler, 2);

    expect(scheduler.pick(10)).toEqual([]);
    scheduler.finished(first.lane, 1);
    expect(scheduler.pick(10).map((event) => event.id)).toEqual(['a-3']);
  });

  it('widens a busy lane after fast deliveries while events wait, up to the maximum', () => {
    const scheduler = new LaneScheduler({ ...settings, laneMaxConcurrency: 3 });
    scheduler.learn(dueOf('a', 10), [], 0);
    const started = pickAndStart(scheduler, 10);
    expect(started).toHaveLength(2);

    for (const { lane } of started) scheduler.adjust(lane, { outcome: 'delivered', durationMs: 5 });
    for (const { lane } of started) scheduler.finished(lane, 1);

    expect(started[0].lane.limit).toBe(3);
    expect(scheduler.pick(10)).toHaveLength(3);
  });

  it('does not widen after a slow answer, and halves a widened lane after a retry, never below the start width', () => {
    const scheduler = new LaneScheduler({ ...settings, laneConcurrency: 1 });
    scheduler.learn(dueOf('a', 20), [], 0);
    const [{ lane }] = pickAndStart(scheduler, 1);
    lane.limit = 6;

    scheduler.adjust(lane, { outcome: 'delivered', durationMs: 500 });
    expect(lane.limit).toBe(3);
    scheduler.adjust(lane, { outcome: 'retry', durationMs: 5 });
    expect(lane.limit).toBe(1);
    scheduler.adjust(lane, { outcome: 'retry', durationMs: 5 });
    expect(lane.limit).toBe(1);
    // A fast answer that fails for good says nothing about the listener's speed.
    scheduler.adjust(lane, { outcome: 'failed', durationMs: 5 });
    expect(lane.limit).toBe(1);
  });

  it('asks for a look when a lane with room has run out of known events and the outbox may hold more', () => {
    const scheduler = new LaneScheduler({ ...settings, readAheadPerApp: 2 });
    scheduler.learn([...dueOf('a', 2), ...dueOf('b', 1)], [], 0);
    expect(scheduler.wantsLook()).toBe(false);

    const started = pickAndStart(scheduler, 10);
    // 'b' read all it had (fewer than a full read-ahead); 'a' read a full one, so more may wait, but its lane is full.
    expect(scheduler.wantsLook()).toBe(false);
    scheduler.finished(started.find(({ event }) => event.app_id === 'b')!.lane, 1);
    expect(scheduler.wantsLook()).toBe(false);
    scheduler.finished(started.find(({ event }) => event.app_id === 'a')!.lane, 1);
    expect(scheduler.wantsLook()).toBe(true);
  });

  it('leaves apps with queued events out of the next look, and keeps their queues through it', () => {
    const scheduler = new LaneScheduler(settings);
    scheduler.learn([...dueOf('a', 3), ...dueOf('b', 1)], [], 0);
    for (const { lane } of pickAndStart(scheduler, 10)) scheduler.finished(lane, 1);
    expect(scheduler.appsToSkip(10)).toEqual(['a']);
    expect(scheduler.appsToSkip(0)).toEqual([]);

    scheduler.learn(dueOf('c', 1), ['a'], 1);

    // 'a' kept its queued a-3; 'b' had nothing due any more; 'c' is new.
    expect(scheduler.pick(10).map((event) => event.id).sort()).toEqual(['a-3', 'c-1']);
  });

  it('drops what a look found for an app whose delivery was paused', () => {
    const scheduler = new LaneScheduler(settings);
    scheduler.learn([...dueOf('a', 3), ...dueOf('b', 1)], [], 0);

    scheduler.forget('a');

    expect(scheduler.pick(10).map((event) => event.id)).toEqual(['b-1']);
  });

  it('forgets only lanes idle for longer than the given time, and a lane made again starts narrow', () => {
    const scheduler = new LaneScheduler(settings);
    scheduler.learn(dueOf('a', 1), [], 0);
    const [{ lane }] = pickAndStart(scheduler, 1, 0);
    lane.limit = 8;

    scheduler.pruneIdle(10_000, 1_000);
    expect(scheduler.started('a', 10_000)).toBe(lane); // in flight: kept
    scheduler.finished(lane, 10_000);
    scheduler.finished(lane, 10_000);

    scheduler.pruneIdle(10_500, 1_000);
    expect(scheduler.started('a', 10_500)).toBe(lane); // idle for less than 1 s: kept
    scheduler.finished(lane, 10_500);

    scheduler.pruneIdle(12_000, 1_000);
    const fresh = scheduler.started('a', 12_000);
    expect(fresh).not.toBe(lane);
    expect(fresh.limit).toBe(settings.laneConcurrency);
  });
});
