import type { Store } from '../../store/store.js';
import { held, pendingLiteral } from '../outbox/probe.js';

export interface RestartCatchUp {
  /** Apps whose listener is probed at once instead of at its retry time. */
  probes: number;
  /** Events due now that were due later (scheduled by an older server) or held with no probe to free them. */
  events: number;
}

/**
 * What a starting worker does before anything else: nothing that waits is held to the schedule of the
 * server that stopped (or was killed). Every backing-off listener's probe is due now, so a listener that
 * came back meanwhile gets its whole backlog as soon as the probe's 2xx releases it; an event scheduled
 * for later (by a server from before listener backoff) is due now; a held event whose app does not
 * back off (nothing would ever probe for it) is due now.
 *
 * Safe with several servers on one store: this only moves due times earlier. Whoever attempts an event
 * must claim it first, and a claim takes only an unleased event (FOR UPDATE SKIP LOCKED on PostgreSQL),
 * so an event in flight at another server is not sent twice; another server's probe in flight may get
 * a second probe beside it, at most once per starting server.
 */
export async function catchUpAfterRestart(store: Store, now: number): Promise<RestartCatchUp> {
  return store.db.transaction().execute(async (tx) => {
    const probes = await tx.updateTable('apps').set({ listener_retry_at: now }).where('listener_retry_at', '>', now).executeTakeFirst();
    const scheduled = await tx.updateTable('events').set({ next_attempt_at: now, updated_at: now }).where('status', '=', pendingLiteral).where('next_attempt_at', '>', now).executeTakeFirst();
    const orphans = await tx
      .updateTable('events')
      .set({ next_attempt_at: now, updated_at: now })
      .where(held)
      .where('app_id', 'not in', tx.selectFrom('apps').select('apps.id').where('apps.listener_retry_at', 'is not', null))
      .executeTakeFirst();
    return { probes: Number(probes.numUpdatedRows), events: Number(scheduled.numUpdatedRows) + Number(orphans.numUpdatedRows) };
  });
}
