import { describe, expect, it } from 'vitest';
import { EntryOrder } from '../../src/api/stream/entryOrder.js';

/** An EntryOrder after `from`, recording the positions it handles. */
function order(from: number, maxHeld = 100) {
  const handled: number[] = [];
  return { order: new EntryOrder<{ seq: number }>(from, (entry) => handled.push(entry.seq), maxHeld), handled };
}

const at = (...seqs: number[]) => seqs.map((seq) => ({ seq }));

describe('EntryOrder: replay and live entries of one connection', () => {
  it('holds live entries while the replay runs, then handles them after it, each position once', () => {
    const { order: o, handled } = order(10);
    for (const entry of at(12, 13)) o.fromFeed(entry);
    expect(handled).toEqual([]);
    // The replay read further than the feed had handed (it reads what is committed), and overlaps it.
    for (const entry of at(11, 12, 13, 14)) o.fromReplay(entry);
    o.fromFeed({ seq: 14 });
    o.fromFeed({ seq: 15 });
    o.goLive();
    o.fromFeed({ seq: 15 });
    o.fromFeed({ seq: 16 });
    expect(handled).toEqual([11, 12, 13, 14, 15, 16]);
  });

  it('fills from what was held what the replay read too early to see', () => {
    const { order: o, handled } = order(10);
    o.fromReplay({ seq: 11 });
    for (const entry of at(12, 13)) o.fromFeed(entry);
    o.goLive();
    expect(handled).toEqual([11, 12, 13]);
  });

  it('ignores what the client already had, and a feed that is behind', () => {
    const { order: o, handled } = order(10);
    o.goLive();
    for (const entry of at(9, 10, 11, 11, 12)) o.fromFeed(entry);
    expect(handled).toEqual([11, 12]);
    expect(o.position).toBe(12);
  });

  it('says when more are held than allowed, and handles nothing once stopped', () => {
    const { order: o, handled } = order(0, 2);
    expect(o.fromFeed({ seq: 1 })).toBe(true);
    expect(o.fromFeed({ seq: 2 })).toBe(true);
    expect(o.fromFeed({ seq: 3 })).toBe(false);
    o.stop();
    o.goLive();
    o.fromReplay({ seq: 4 });
    expect(handled).toEqual([]);
  });
});
