import { api } from '@aviary/protocol';
import { isEventOfApp } from '../../../core/queries/apps.js';
import { listEventAttempts } from '../../../events/history/eventHistory.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';

export default defineHandler(api.deliveries.listAttempts, async ({ appId, eventId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'deliveries', 'see or act on its event deliveries');
  if (!(await isEventOfApp(ctx.db, app.id, eventId))) throw invalidParameter('eventId', `The app has no event "${eventId}".`);
  return { attempts: await listEventAttempts(ctx.db, eventId) };
});
