import { api } from '@aviary/protocol';
import { replayEvent } from '../../../events/history/eventHistory.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';

export default defineHandler(api.deliveries.replay, async ({ appId, eventId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'deliveries', 'see or act on its event deliveries');
  await replayEvent(ctx, app.id, eventId);
  ctx.events.deliveryChanged(app.id, [eventId]);
  return { replayed: true as const };
});
