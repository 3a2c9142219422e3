import { api } from '@aviary/protocol';
import { listAppEvents } from '../../../events/history/eventHistory.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';

export default defineHandler(api.deliveries.list, async ({ appId, ...page }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'deliveries', 'see or act on its event deliveries');
  return { events: await listAppEvents(ctx.db, app.id, page) };
});
