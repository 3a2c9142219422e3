import { api } from '@aviary/protocol';
import { resumeAppDelivery } from '../../../events/history/eventHistory.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';

export default defineHandler(api.deliveries.resume, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'deliveries', 'see or act on its event deliveries');
  await resumeAppDelivery(ctx, app.id);
  ctx.events.deliveryChanged(app.id);
  return { resumed: true as const };
});
