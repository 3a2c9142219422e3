import type { AnyEvent } from '@aviary/protocol';
import type { Db, Tx } from '../../store/store.js';
import { insertEvent } from '../../store/rows/events.js';
import { newEventId } from '../ids.js';
import { appSubscribesTo } from '../subscriptions.js';

/**
 * Puts an asynchronous event in the outbox. Call it inside the transaction of the change that causes
 * the event, so both commit or neither does; after the commit, `ctx.events.wake()` starts delivery.
 * Undefined, and nothing enqueued, when the app did not subscribe to the event.
 */
export async function enqueueEvent(
  db: Db | Tx,
  input: { appId: string; userId: string; event: AnyEvent },
  now: number,
): Promise<{ eventId: string } | undefined> {
  if (!(await appSubscribesTo(db, input.appId, input.event.name))) return undefined;
  const eventId = newEventId(now);
  await insertEvent(db, {
    id: eventId,
    app_id: input.appId,
    user_id: input.userId,
    name: input.event.name,
    payload: JSON.stringify(input.event),
    synchronous: 0,
    status: 'pending',
    retry_num: 0,
    next_attempt_at: now,
    last_reason: null,
    last_error: null,
    delivered_at: null,
    claimed_until: null,
    claim_token: null,
    created_at: now,
    updated_at: now,
  });
  return { eventId };
}
