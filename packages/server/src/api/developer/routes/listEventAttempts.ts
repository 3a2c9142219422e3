import { developerRoutes } from '@aviary/protocol';
import { listEventAttempts } from '../../../events/history/eventHistory.js';
import { invalidParameter } from '../../errors.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.listEventAttempts, async ({ id, eventId }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  const event = await ctx.db.selectFrom('events').select('id').where('id', '=', eventId).where('app_id', '=', app.id).executeTakeFirst();
  if (!event) throw invalidParameter('eventId', `The app has no event "${eventId}".`);
  return { attempts: await listEventAttempts(ctx.db, eventId) };
});
