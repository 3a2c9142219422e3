import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import type { AppsTable } from '../../store/schema.js';
import { listAppEvents, listEventAttempts, replayEvent, resumeAppDelivery } from '../../events/history/eventHistory.js';
import { invalidParameter } from '../errors.js';
import { requireDeveloper } from './access.js';
import { appOfRoute } from './apps.js';

/**
 * The app's delivery log, the developer's alone: events carry what people sent the app (direct and
 * private-channel messages to its bot), which a team admin has no reason to read.
 */
async function developersApp(ctx: ServerContext, request: FastifyRequest): Promise<AppsTable> {
  const reachable = await appOfRoute(ctx, request);
  requireDeveloper(reachable, 'see or act on its event deliveries', 'events carry what people sent the app');
  return reachable.app;
}

/** The app's event history, each event's attempts, replays and resuming paused delivery (under /api/developer). */
export function registerDeveloperEventRoutes(scope: FastifyInstance, ctx: ServerContext): void {
  scope.get('/apps/:id/events', async (request) => {
    const app = await developersApp(ctx, request);
    const query = request.query as Record<string, string | string[] | undefined>;
    const events = await listAppEvents(ctx.db, app.id, {
      limit: readLimit(single(query, 'limit')),
      before: single(query, 'before'),
      status: single(query, 'status'),
    });
    return { events };
  });

  scope.get('/apps/:id/events/:eventId/attempts', async (request) => {
    const app = await developersApp(ctx, request);
    const { eventId } = request.params as { eventId: string };
    const event = await ctx.db.selectFrom('events').select('id').where('id', '=', eventId).where('app_id', '=', app.id).executeTakeFirst();
    if (!event) throw invalidParameter('eventId', `The app has no event "${eventId}".`);
    return { attempts: await listEventAttempts(ctx.db, eventId) };
  });

  scope.post('/apps/:id/events/:eventId/replay', async (request) => {
    const app = await developersApp(ctx, request);
    await replayEvent(ctx, app.id, (request.params as { eventId: string }).eventId);
    return { replayed: true };
  });

  scope.post('/apps/:id/delivery/resume', async (request) => {
    const app = await developersApp(ctx, request);
    await resumeAppDelivery(ctx, app.id);
    return { resumed: true };
  });
}

/** A query parameter given at most once: a repeated one arrives as an array, which nothing here reads. */
function single(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw invalidParameter(name, `${name} was given ${value.length} times; give it once.`);
  return value;
}

function readLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 200) throw invalidParameter('limit', `limit must be a whole number from 1 to 200; got "${value.slice(0, 20)}".`);
  return Number(value);
}
