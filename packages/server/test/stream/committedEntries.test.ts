import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { teamStreamPositions } from '../../src/core/queries/stream.js';
import { CommittedEntries } from '../../src/core/stream/committedEntries.js';
import { streamTopic } from '../../src/core/stream/record.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, streamCast } from './harness.js';

afterEach(closeStreams);

const entry = (seq: number) => ({ seq, type: 'app.deleted', audience: '{"to":"team"}', payload: `{"appId":"a:${seq}"}` });

describe('the entries a process just committed', () => {
  it('gives the run after a position up to the announced one, only when every position is there', () => {
    const kept = new CommittedEntries();
    kept.remember('t1', [entry(5), entry(6)]);
    kept.remember('t1', [entry(8)]);
    kept.remember('t1', [entry(7)]);
    expect(kept.between('t1', 4, 8)?.map((e) => e.seq)).toEqual([5, 6, 7, 8]);
    expect(kept.between('t1', 6, 7)?.map((e) => e.seq)).toEqual([7]);
    // What lies before the first kept one, after the last, or in another team is not known here.
    expect(kept.between('t1', 3, 8)).toBeUndefined();
    expect(kept.between('t1', 4, 9)).toBeUndefined();
    expect(kept.between('t2', 4, 8)).toBeUndefined();
    expect(kept.between('t1', 8, 8)).toBeUndefined();
  });

  it('refuses a run with a gap (an entry another process wrote)', () => {
    const kept = new CommittedEntries();
    kept.remember('t1', [entry(1), entry(2), entry(4)]);
    expect(kept.between('t1', 0, 4)).toBeUndefined();
    expect(kept.between('t1', 0, 2)?.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('keeps a bounded number of entries per team and of teams', () => {
    const kept = new CommittedEntries();
    for (let seq = 1; seq <= 1_000; seq++) kept.remember('t1', [entry(seq)]);
    expect(kept.between('t1', 0, 1_000)).toBeUndefined();
    expect(kept.between('t1', 900, 1_000)).toHaveLength(100);
    for (let team = 0; team < 1_000; team++) kept.remember(`team ${team}`, [entry(1)]);
    expect(kept.between('team 0', 0, 1)).toBeUndefined();
    expect(kept.between('team 999', 0, 1)).toHaveLength(1);
  });
});

describe('[sqlite] a stream fed from what its process committed', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(() => stopTestServer(t));

  it('gets a new message with no read of the stream log behind it, and the same frames as from the store', async () => {
    const { team, people } = await streamCast(t, ['Ann', 'Ben']);
    const [ann, ben] = people;
    const stream = await openStream(t, ben);
    expect((await ann.call('chat.sendMessage', { to: ben.user.id, text: 'from memory or the store, the same' })).status).toBe(200);
    const frame = await stream.waitFor(messageWithText('from memory or the store, the same'));
    // Resumed from the store, the frame is the same, byte for byte.
    const resumed = await openStream(t, ben, { cursor: '0' });
    expect(await resumed.waitFor(messageWithText('from memory or the store, the same'))).toEqual(frame);

    // An entry known only to this process's memory (no row in the store) still reaches the stream:
    // the feed did not read it back.
    const position = (await teamStreamPositions(t.server.ctx.db, [team.id])).get(team.id)!;
    t.server.ctx.committedEntries!.remember(team.id, [entry(position + 1)]);
    t.server.ctx.bus.publish(streamTopic(team.id), String(position + 1));
    expect(await stream.waitFor((f) => f.type === 'app.deleted' && f.appId === `a:${position + 1}`)).toMatchObject({ cursor: String(position + 1) });
  });
});
