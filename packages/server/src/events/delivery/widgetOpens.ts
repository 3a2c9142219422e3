import type { WidgetEvent } from '@aviary/protocol';
import type { EventsContext } from '../context.js';
import { holdApp } from '../../store/rows/apps.js';
import { insertEvent } from '../../store/rows/events.js';

/**
 * A widget or browser page the person's client is given, with the event in its URL, recorded in the
 * app's delivery log beside its deliveries: delivered (to the client) when the URL is made, with no
 * attempts, its id the token's `jti`. The URL is kept without its query: that carries the token.
 */
export async function recordWidgetOpen(
  ctx: Pick<EventsContext, 'db' | 'now' | 'events'>,
  open: { eventId: string; appId: string; event: WidgetEvent; url: URL },
): Promise<void> {
  const now = ctx.now();
  const recorded = await ctx.db.transaction().execute(async (tx) => {
    // An app deleted meanwhile has no delivery log left to record the open in.
    if (!(await holdApp(tx, open.appId))) return false;
    await insertEvent(tx, {
      id: open.eventId,
      app_id: open.appId,
      user_id: open.event.userId,
      name: open.event.name,
      payload: JSON.stringify(open.event),
      synchronous: 1,
      status: 'delivered',
      delivered_at: now,
      opened_url: `${open.url.origin}${open.url.pathname}`,
      created_at: now,
      updated_at: now,
    });
    return true;
  });
  if (recorded) ctx.events.deliveryChanged(open.appId, [open.eventId]);
}
