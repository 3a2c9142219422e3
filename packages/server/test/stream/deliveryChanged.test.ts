import { eventExamples, type StreamFrame } from '@aviary/protocol';
import { afterAll, afterEach, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { sessionFor } from '../client/harness.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, openStream } from './harness.js';

/** `delivery.changed`: the app's developer, and nobody else, hears of its delivery log changing. */
const listeners: TestListener[] = [];
afterEach(closeStreams);
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
});

const deliveryOf = (appId: string, eventId?: string) => (frame: StreamFrame) =>
  frame.type === 'delivery.changed' && frame.appId === appId && (eventId === undefined || frame.eventIds.includes(eventId));

forEachDialect('stream: delivery.changed', (t) => {
  it('reaches the developer when events are queued or delivered, synchronous or not, and when delivery is paused; never the team admin or anyone else', async () => {
    const team = await t().f.team();
    const developer = await sessionFor(t(), await t().f.person(team.id));
    const admin = await sessionFor(t(), await t().f.person(team.id, { role: 'admin' }));
    const someone = await sessionFor(t(), await t().f.person(team.id));
    const listener = await startListener(answerWithSdk);
    listeners.push(listener);
    const app = await t().f.app(team.id, developer.user.id, { listenerUrl: listener.url });
    listener.verifyAs(app.id, app.secret, { onError: () => undefined });
    const [mine, admins, theirs] = await Promise.all([developer, admin, someone].map((who) => openStream(t(), who)));

    const { ctx } = t().server;
    const { eventId } = (await enqueueEvent(ctx.db, { appId: app.id, userId: someone.user.id, event: { ...eventExamples['app.uninstall'], userId: someone.user.id } }, Date.now()))!;
    ctx.events.wake();
    await listener.waitForVerified(1);
    expect(await mine!.waitFor(deliveryOf(app.id, eventId))).toMatchObject({ deliveryPausedAt: null });

    expect((await someone.call('apps.install', { appId: app.id })).status).toBe(200);
    const install = await ctx.db.selectFrom('events').select('id').where('app_id', '=', app.id).where('name', '=', 'app.install').executeTakeFirstOrThrow();
    await mine!.waitFor(deliveryOf(app.id, install.id));

    const paused = await fetch(`${t().url}/v1/deliveries.pause`, {
      method: 'POST',
      headers: { authorization: `Bearer ${developer.sessionToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: app.id }),
    });
    expect(paused.status).toBe(200);
    await mine!.waitFor((frame) => deliveryOf(app.id)(frame) && frame.type === 'delivery.changed' && frame.deliveryPausedAt !== null);

    // Queued while paused: it is not attempted, but the developer sees it arrive.
    expect((await someone.call('apps.uninstall', { appId: app.id })).status).toBe(200);
    const waiting = await ctx.db.selectFrom('events').select('id').where('app_id', '=', app.id).where('status', '=', 'pending').executeTakeFirstOrThrow();
    await mine!.waitFor(deliveryOf(app.id, waiting.id));

    await fence(t(), team.id, developer.user.id, [admins!, theirs!]);
    expect([...admins!.data(), ...theirs!.data()].filter((frame) => frame.type === 'delivery.changed')).toEqual([]);
  });
});
