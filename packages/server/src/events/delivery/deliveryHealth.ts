import { newMessageUid } from '../../store/ids.js';
import type { Tx } from '../../store/store.js';
import { directChatKey, insertMessages, messageRow } from '../../store/rows/messages.js';
import { pauseAfterFailingMs } from './settings.js';
import { teamSystemUser } from './systemUser.js';

export interface AppForDelivery {
  id: string;
  name: string;
  team_id: string;
  developer_id: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  listener_url: string | null;
  flock_naming: number;
  /** As read when the attempt is recorded; the pause itself is decided on the stored value. */
  delivery_failing_since: number | null;
}

/**
 * Keeps the app's failure streak after an asynchronous attempt: a success ends it; a failure starts it
 * or, once it has lasted `pauseAfterFailingMs`, pauses the app's delivery and tells its developer.
 * Runs in the attempt's transaction, and the pause is one conditional update, so exactly one attempt
 * pauses the app and sends the notice, even with several servers. Returns whether this attempt paused it.
 */
export async function trackDeliveryHealth(tx: Tx, app: AppForDelivery, attempt: { delivered: boolean; error: string; at: number }): Promise<boolean> {
  if (attempt.delivered) {
    if (app.delivery_failing_since === null) return false;
    await tx.updateTable('apps').set({ delivery_failing_since: null }).where('id', '=', app.id).execute();
    return false;
  }
  if (app.delivery_failing_since === null) {
    await tx.updateTable('apps').set({ delivery_failing_since: attempt.at }).where('id', '=', app.id).where('delivery_failing_since', 'is', null).execute();
    return false;
  }
  const paused = await tx
    .updateTable('apps')
    .set({ delivery_paused_at: attempt.at })
    .where('id', '=', app.id)
    .where('delivery_paused_at', 'is', null)
    .where('delivery_failing_since', '<=', attempt.at - pauseAfterFailingMs)
    .executeTakeFirst();
  if (Number(paused.numUpdatedRows) !== 1) return false;
  await tellDeveloperDeliveryPaused(tx, app, attempt.error, attempt.at);
  return true;
}

/** A direct message from the team's system bot to the app's developer. */
async function tellDeveloperDeliveryPaused(tx: Tx, app: AppForDelivery, lastError: string, now: number): Promise<void> {
  const systemUserId = await teamSystemUser(tx, app.team_id, now);
  const text =
    `Aviary paused event delivery for ${app.name} after ${pauseAfterFailingMs / 86_400_000} days of failures at ${app.listener_url ?? '(no listener URL)'}; ` +
    `last error: ${lastError.slice(0, 300)}; replay or resume from the developer dashboard.`;
  await insertMessages(tx, [messageRow({
    uid: newMessageUid(now), chat_key: directChatKey(systemUserId, app.developer_id), team_id: app.team_id,
    from_user_id: systemUserId, to_id: app.developer_id, timestamp: now, text,
  })]);
}
