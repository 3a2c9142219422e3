import type { Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { deleteApp } from '../../src/core/commands/apps.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { http } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, streamCast } from './harness.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

afterEach(closeStreams);

const generous = { message: { rate: 10_000, burst: 10_000 }, messagePerRecipient: { rate: 10_000, burst: 10_000 } };

/** The TCP socket under a `ws` client: pausing it makes a client that stops reading. */
const tcpOf = (socket: unknown): Socket => (socket as { _socket: Socket })._socket;

forEachDialect(
  'the stream and a slow consumer',
  (t) => {
    it('cuts off a client that stops reading once its unsent frames pass the bound, while another keeps receiving', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'firehose', members: [ben.user.id, cy.user.id] });
      const slow = await openStream(t(), ben);
      const fast = await openStream(t(), cy);
      tcpOf(slow.socket).pause();

      const filler = 'x'.repeat(30_000);
      let sent = 0;
      // Until the server has given up on the slow one; the bound on messages only keeps a broken server from looping.
      while (t().server.gateway.openConnections() === 2 && sent < 2000) {
        sent++;
        await ann.call('chat.sendFromComposer', { to: channel.id, text: `${sent} ${filler}` });
        await fast.waitFor(messageWithText(`${sent} ${filler}`));
      }
      expect(t().server.gateway.openConnections()).toBe(1);
      await ann.call('chat.sendFromComposer', { to: channel.id, text: 'after the cut' });
      await fast.waitFor(messageWithText('after the cut'));

      tcpOf(slow.socket).resume();
      expect(await slow.closed).toEqual({ code: 4000, reason: expect.stringMatching(/too slow/) });
      // It got what was sent before the cut, in order, and nothing after.
      const numbers = (stream: typeof slow) => stream.data().flatMap((frame) => (frame.type === 'message.created' ? [frame.message.text.split(' ')[0]] : []));
      expect(numbers(slow)).toEqual(Array.from({ length: sent }, (_, i) => String(i + 1)));
      expect(numbers(fast)).toEqual([...numbers(slow), 'after']);
    });
  },
  { rateLimits: generous, bodyLimitBytes: 64 * 1024, stream: { maxBufferedBytes: 256 * 1024 } },
);

forEachDialect(
  'the stream’s heartbeat',
  (t) => {
    it('cuts off a peer that stops answering pings, and keeps one that answers', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const healthy = await openStream(t(), people[0]);
      const dead = await openStream(t(), people[1], { client: { autoPong: false } });
      let pings = 0;
      const survivedThreePings = new Promise<void>((resolve) => healthy.socket.on('ping', () => ++pings === 3 && resolve()));
      expect((await dead.closed).code).toBe(1006);
      await survivedThreePings;
      expect(healthy.socket.readyState).toBe(healthy.socket.OPEN);
    });
  },
  { stream: { heartbeatMs: 100 } },
);

forEachDialect(
  'the stream and its session',
  (t) => {
    it('closes 1008 when the session that opened it signs out', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const annStream = await openStream(t(), ann);
      const benStream = await openStream(t(), ben);
      await http(t().url, 'DELETE', '/api/session', { headers: { authorization: `Bearer ${ann.sessionToken}` } });
      expect(await annStream.closed).toMatchObject({ code: 1008 });
      await ann.call('chat.sendFromComposer', { to: ben.user.id, text: 'still here' });
      expect((await ben.call('chat.sendFromComposer', { to: ann.user.id, text: 'ben is still here' })).status).toBe(200);
      await benStream.waitFor(messageWithText('ben is still here'));
    });
  },
  { stream: { sessionCheckMs: 50 } },
);

forEachDialect(
  'the stream’s catch-up',
  (t) => {
    it('delivers a change that no notice announced (made as the CLI makes it) from the store', async () => {
      const { team, people } = await streamCast(t(), ['Ann']);
      const stream = await openStream(t(), people[0]);
      const app = await t().f.app(team.id, people[0].user.id);
      await deleteApp(storeContext(t().testStore.store.db), cliActor, { appId: app.id });
      expect(await stream.waitFor((frame) => frame.type === 'app.deleted')).toMatchObject({ appId: app.id });
    });
  },
  { stream: { catchUpMs: 50 } },
);

forEachDialect('the stream in the metrics', (t) => {
  it('counts the open streams in aviary_open_websockets', async () => {
    const { people } = await streamCast(t(), ['Ann', 'Ben']);
    await Promise.all(people.map((who) => openStream(t(), who)));
    const metrics = await http(t().url, 'GET', '/metrics');
    expect(/^aviary_open_websockets (\d+)$/m.exec(String(metrics.body))?.[1]).toBe('2');
  });
});
