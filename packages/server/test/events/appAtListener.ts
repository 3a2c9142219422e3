import type { AnyEvent } from '@aviary/protocol';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import type { Db } from '../../src/store/store.js';
import { startListener, type Responder, type TestListener } from '../helpers/listener.js';
import type { TestServer } from '../helpers/server.js';

/** `count` events of the app in one commit, oldest first (`n` tells them apart). */
export async function enqueueMany(db: Db, appId: string, userId: string, count: number, now: number): Promise<string[]> {
  const ids: string[] = [];
  await db.transaction().execute(async (tx) => {
    for (let n = 0; n < count; n++) ids.push((await enqueueEvent(tx, { appId, userId, event: { name: 'app.uninstall', userId, n } as AnyEvent }, now))!.eventId);
  });
  return ids;
}

/**
 * An app of a team of its own whose listener answers with `respond` (a test listener, added to
 * `listeners` for the test to close) or is at the URL given; `send(count)` enqueues that many events
 * and wakes the worker.
 */
export async function appAtListener(t: TestServer, listeners: TestListener[], respond: Responder | string) {
  const listener = typeof respond === 'string' ? undefined : await startListener(respond);
  if (listener) listeners.push(listener);
  const team = await t.f.team();
  const developer = await t.f.person(team.id);
  const app = await t.f.app(team.id, developer.id, { listenerUrl: listener?.url ?? (respond as string) });
  const send = async (count = 1) => {
    const ids = await enqueueMany(t.server.ctx.db, app.id, developer.id, count, t.server.ctx.now());
    t.server.ctx.events.wake();
    return ids;
  };
  return { listener: listener!, app, developer, send };
}
