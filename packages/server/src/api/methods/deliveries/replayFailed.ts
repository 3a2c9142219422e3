import { api } from '@aviary/protocol';
import { replayFailedEvents } from '../../../events/history/eventHistory.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';

export default defineHandler(api.deliveries.replayFailed, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'deliveries', 'see or act on its event deliveries');
  const replayed = await replayFailedEvents(ctx, app.id);
  if (replayed > 0) ctx.events.deliveryChanged(app.id);
  return { replayed };
});
