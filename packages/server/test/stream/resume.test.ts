import { afterEach, describe, expect, it } from 'vitest';
import { pruneStream } from '../../src/core/commands/pruneStream.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { sessionFor, type SignedIn } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { forEachDialect, restartOnSameStore, startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closeStreams, fence, messageWithText, openStream, streamCast, type StreamClient } from './harness.js';

afterEach(closeStreams);

const generous = { message: { rate: 10_000, burst: 10_000 }, messagePerRecipient: { rate: 10_000, burst: 10_000 } };

/** The texts of the new messages a stream received, in order. */
const texts = (...streams: StreamClient[]): string[] =>
  streams.flatMap((stream) => stream.data().flatMap((frame) => (frame.type === 'message.created' ? [frame.message.text] : [])));

const numbered = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

async function sendAll(sender: SignedIn, to: string, labels: readonly string[]): Promise<void> {
  for (const text of labels) expect((await sender.call('chat.sendFromComposer', { to, text })).status).toBe(200);
}

forEachDialect(
  'the stream resumes after a disconnect',
  (t) => {
    it('with exactly what was missed: no gap, no duplicate, though messages kept coming throughout', async () => {
      const { team, people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const { channel } = await createChannel(t().server.ctx, { user: ben.user, appId: null }, { name: 'busy', members: [ann.user.id] });
      const first = await openStream(t(), ann);

      // Messages keep coming while the socket is cut mid-stream…
      const sending = sendAll(ben, channel.id, numbered(1, 20));
      await first.waitFor(messageWithText('m10'));
      await first.close();
      await sending;
      // …while nobody listens, including one Ann may not see…
      await sendAll(ben, channel.id, numbered(21, 40));
      await ben.call('chat.sendFromComposer', { to: cy.user.id, text: 'not for ann' });
      // …and while she replays what she missed.
      const resumed = openStream(t(), ann, { cursor: first.cursor() });
      const live = sendAll(ben, channel.id, numbered(41, 60));
      const second = await resumed;
      await live;
      await second.waitFor(messageWithText('m60'));
      await fence(t(), team.id, ann.user.id, [second]);

      expect(texts(first, second)).toEqual(numbered(1, 60));
      expect(second.frames[0]).toEqual({ type: 'hello', cursor: first.cursor(), userId: ann.user.id });
      const cursors = [...first.data(), ...second.data()].map((frame) => Number(frame.cursor));
      expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    });

    it('orders what concurrent senders commit the same live and on replay, each position once', async () => {
      const { team, people } = await streamCast(t(), ['Ann', 'Ben', 'Cy', 'Dee', 'Eve']);
      const [ann, ...senders] = people;
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'crowd', members: senders.map((who) => who.user.id) });
      const live = await openStream(t(), ann);
      await Promise.all(senders.map((sender, s) => sendAll(sender, channel.id, numbered(1, 15).map((label) => `${s}-${label}`))));
      await fence(t(), team.id, ann.user.id, [live]);
      const hello = live.frames[0].type === 'hello' ? live.frames[0].cursor : '';
      const replayed = await openStream(t(), ann, { cursor: hello });
      await fence(t(), team.id, ann.user.id, [replayed]);

      expect(texts(live)).toHaveLength(60);
      expect(new Set(texts(live)).size).toBe(60);
      expect(texts(replayed)).toEqual(texts(live));
      const cursors = live.data().map((frame) => Number(frame.cursor));
      expect(cursors.every((cursor, i) => i === 0 || cursor > cursors[i - 1])).toBe(true);
    });

    it('answers a cursor the team never reached with one resync frame, then closes 4000', async () => {
      const { people } = await streamCast(t(), ['Ann']);
      const fresh = await openStream(t(), people[0]);
      const future = await openStream(t(), people[0], { cursor: String(Number(fresh.cursor()) + 1000) });
      expect(await future.closed).toMatchObject({ code: 4000 });
      expect(future.frames.slice(1)).toEqual([{ type: 'resync', reason: 'unknownCursor' }]);
    });

    it('answers a cursor whose entries were pruned with resync', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const before = await openStream(t(), ann);
      await sendAll(ben, ann.user.id, ['old news']);
      await before.waitFor(messageWithText('old news'));
      const cursor = before.frames[0].type === 'hello' ? before.frames[0].cursor : '';
      await pruneStream(t().testStore.store.db, { now: Date.now() + 1000, retentionMs: 0 });
      await sendAll(ben, ann.user.id, ['new news']);
      const behind = await openStream(t(), ann, { cursor });
      expect(await behind.closed).toMatchObject({ code: 4000 });
      expect(behind.frames.slice(1)).toEqual([{ type: 'resync', reason: 'tooFarBehind' }]);
    });
  },
  { rateLimits: generous },
);

forEachDialect(
  'the stream, too far behind',
  (t) => {
    it('gets one resync frame instead of a replay longer than maxReplayEntries', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const first = await openStream(t(), ann);
      const cursor = first.cursor();
      await first.close();
      await sendAll(ben, ann.user.id, numbered(1, 4));
      const near = await openStream(t(), ann, { cursor });
      await near.waitFor(messageWithText('m4'));
      expect(texts(near)).toEqual(numbered(1, 4));
      await sendAll(ben, ann.user.id, numbered(5, 7));
      const far = await openStream(t(), ann, { cursor });
      expect(await far.closed).toEqual({ code: 4000, reason: expect.stringMatching(/reconnect without a cursor/) });
      expect(far.frames).toEqual([{ type: 'hello', cursor, userId: ann.user.id }, { type: 'resync', reason: 'tooFarBehind' }]);
    });
  },
  { rateLimits: generous, stream: { maxReplayEntries: 5 } },
);

describe('the stream across a server restart', () => {
  for (const dialect of dialects) {
    it(`[${dialect}] resumes on a new server over the same store, after being told to reconnect`, async () => {
      const first = await startTestServer(dialect, { rateLimits: generous });
      let second: TestServer | undefined;
      try {
        const { people } = await streamCast(first, ['Ann', 'Ben']);
        const [ann, ben] = people;
        const before = await openStream(first, ann);
        await sendAll(ben, ann.user.id, numbered(1, 5));
        await before.waitFor(messageWithText('m5'));

        await first.server.close();
        expect(await before.closed).toMatchObject({ code: 1012 });
        expect(before.frames.at(-1)).toEqual({ type: 'reconnect' });

        second = await restartOnSameStore(first, { rateLimits: generous });
        const benAgain = await sessionFor(second, ben.user);
        await sendAll(benAgain, ann.user.id, numbered(6, 10));
        const after = await openStream(second, await sessionFor(second, ann.user), { cursor: before.cursor() });
        await after.waitFor(messageWithText('m10'));
        expect(texts(before, after)).toEqual(numbered(1, 10));
      } finally {
        await closeStreams();
        if (second) await second.server.close();
        await stopTestServer(first);
      }
    });
  }
});
