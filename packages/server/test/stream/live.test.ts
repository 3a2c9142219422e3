import type { StreamFrame } from '@aviary/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_LEASE_MS } from '../../src/api/stream/presence.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { createLog } from '../../src/log.js';
import { expectError } from '../client/harness.js';
import { captureLog } from '../helpers/logs.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closeStreams, fence, openStream, streamCast, type StreamClient } from './harness.js';

afterEach(closeStreams);

const typing = (frame: StreamFrame) => frame.type === 'typing';
const presence = (status: 'online' | 'away', userId: string) => (frame: StreamFrame) =>
  frame.type === 'presence' && frame.status === status && frame.userIds.includes(userId);
const typingFrames = (client: StreamClient) => client.frames.filter(typing);

// Typing and presence touch no table of the store's dialects: one dialect is enough.
describe('typing and presence on the stream', () => {
  /** The server's clock: a hold lapses when a test moves it, never by waiting. */
  let clock = Date.now();
  let t: TestServer;
  /** What the server logs: a stream's closing on its side is a line (debug). */
  const serverLog = captureLog();
  beforeAll(async () => {
    t = await startTestServer('sqlite', { rateLimits: { message: { rate: 1, burst: 3 } } }, { now: () => clock, log: createLog({ logLevel: 'debug' }, serverLog.destination) });
  });
  afterAll(() => stopTestServer(t));

  it('shows someone typing in a channel to its other members, and in a direct chat to the other person, named as their `to`', async () => {
    const { team, people } = await streamCast(t, ['Ann', 'Ben', 'Cy']);
    const [ann, ben, cy] = people;
    const { channel } = await createChannel(t.server.ctx, { user: ann.user, appId: null }, { name: 'typing', members: [ben.user.id] });
    const [annStream, benStream, cyStream] = [await openStream(t, ann), await openStream(t, ben), await openStream(t, cy)];

    expect((await ann.call('chat.signalTyping', { chat: channel.id })).status).toBe(200);
    expect(await benStream.waitFor(typing)).toEqual({ type: 'typing', chat: channel.id, userId: ann.user.id });
    expect((await ann.call('chat.signalTyping', { chat: cy.user.id })).status).toBe(200);
    expect(await cyStream.waitFor(typing)).toEqual({ type: 'typing', chat: ann.user.id, userId: ann.user.id });

    // Once every stream has a later frame, what it lacks was never sent to it.
    await fence(t, team.id, ann.user.id, [annStream, benStream, cyStream]);
    expect(typingFrames(annStream)).toEqual([]);
    expect(typingFrames(benStream)).toHaveLength(1);
    expect(typingFrames(cyStream)).toHaveLength(1);
  });

  it('keeps no typing in the stream: a client that resumes from an earlier cursor gets none again', async () => {
    const { team, people } = await streamCast(t, ['Ann', 'Ben']);
    const [ann, ben] = people;
    const first = await openStream(t, ben);
    const cursor = first.cursor();
    const entriesBefore = await t.server.ctx.db.selectFrom('stream_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    await ann.call('chat.signalTyping', { chat: ben.user.id });
    await first.waitFor(typing);
    const entriesAfter = await t.server.ctx.db.selectFrom('stream_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(entriesAfter.n)).toBe(Number(entriesBefore.n));
    await first.close();

    const resumed = await openStream(t, ben, { cursor });
    await fence(t, team.id, ann.user.id, [resumed]);
    expect(typingFrames(resumed)).toEqual([]);
  });

  it('refuses typing in a chat the person does not read, and limits how often it is sent', async () => {
    const { people } = await streamCast(t, ['Ann', 'Ben']);
    const [ann, ben] = people;
    const { channel } = await createChannel(t.server.ctx, { user: ben.user, appId: null }, { name: 'not-annes', members: [] });
    expectError(await ann.call('chat.signalTyping', { chat: channel.id }), { status: 400, error: 'UnknownChat', parameter: 'chat' });
    expectError(await ann.call('chat.signalTyping', { chat: 'nonsense' }), { status: 400, error: 'InvalidParameter', parameter: 'chat' });
    clock += 60_000;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await ann.call('chat.signalTyping', { chat: ben.user.id })).status);
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('tells the team who comes online, lists everyone online to a new stream, and who went away once their last stream closed', async () => {
    const { people } = await streamCast(t, ['Ann', 'Ben']);
    const [ann, ben] = people;
    const annStream = await openStream(t, ann);
    // Arrivals are held in batches (a second apart): this one now.
    await t.server.gateway.presence.holdArrivals();
    const benFirst = await openStream(t, ben);
    expect(await annStream.waitFor(presence('online', ben.user.id))).toEqual({ type: 'presence', status: 'online', userIds: [ben.user.id] });
    // A stream's first presence frame, after its replay, lists everyone online.
    const snapshot = await benFirst.waitFor((frame) => frame.type === 'presence');
    expect(snapshot).toMatchObject({ status: 'online' });
    expect(new Set((snapshot as { userIds: string[] }).userIds)).toEqual(new Set([ann.user.id, ben.user.id]));

    // Two streams, one closed: still online.
    const benSecond = await openStream(t, ben);
    await benFirst.close();
    // The client's side is closed; the server's follows, and logs it.
    const serverSees = async (open: number) => {
      await serverLog.waitFor((line) => line.msg === 'a stream closed' && line.userId === ben.user.id && line.open === open);
      expect(t.server.gateway.connectionsOf(ben.user.id)).toBe(open);
    };
    await serverSees(1);
    clock += PRESENCE_LEASE_MS + 1;
    await t.server.gateway.presence.renew();
    await benSecond.close();
    await serverSees(0);
    // The last one closed: away once the hold lapses (a reload within the lease is not).
    await t.server.gateway.presence.renew();
    expect(annStream.frames.some(presence('away', ben.user.id))).toBe(false);
    clock += PRESENCE_LEASE_MS + 1;
    await t.server.gateway.presence.renew();
    expect(await annStream.waitFor(presence('away', ben.user.id))).toEqual({ type: 'presence', status: 'away', userIds: [ben.user.id] });
    expect(annStream.frames.filter(presence('away', ben.user.id))).toHaveLength(1);
  });

  it('tells the team that someone is online again when their stream comes back after the lease, before the sweep let go of it', async () => {
    const { people } = await streamCast(t, ['Ann', 'Ben']);
    const [ann, ben] = people;
    const annStream = await openStream(t, ann);
    const benFirst = await openStream(t, ben);
    await t.server.gateway.presence.holdArrivals();
    await annStream.waitFor(presence('online', ben.user.id));
    await benFirst.close();
    await serverLog.waitFor((line) => line.msg === 'a stream closed' && line.userId === ben.user.id && line.open === 0);
    // Ben's lease runs out; no renewal has swept it yet when his page reconnects.
    clock += PRESENCE_LEASE_MS + 1;
    const benAgain = await openStream(t, ben);
    await t.server.gateway.presence.holdArrivals();
    const onlineAgain = (frame: StreamFrame) => presence('online', ben.user.id)(frame) && annStream.frames.filter(presence('online', ben.user.id)).length === 2;
    expect(await annStream.waitFor(onlineAgain)).toEqual({ type: 'presence', status: 'online', userIds: [ben.user.id] });
    await t.server.gateway.presence.renew();
    const later = await openStream(t, ann);
    const snapshot = await later.waitFor((frame) => frame.type === 'presence');
    expect((snapshot as { userIds: string[] }).userIds).toContain(ben.user.id);
    expect(annStream.frames.some(presence('away', ben.user.id))).toBe(false);
    await benAgain.close();
  });
});
