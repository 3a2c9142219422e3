import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { createApp, deleteApp, enableBot, rotateAppSecret, updateApp } from '../../core/commands/apps.js';
import { presentDeveloperApp } from '../../core/presenters/apps.js';
import { ApiError } from '../errors.js';
import { signedInPerson } from '../session/auth.js';
import { reachableApp, requireDeveloper, requireDeveloperForRouting, type ReachableApp } from './access.js';
import { jsonObjectBody, readAppFields, requireValidIntegrations } from './appFields.js';

/** The app named by the route's `:id`, when the signed-in person may manage it. */
export async function appOfRoute(ctx: ServerContext, request: FastifyRequest): Promise<ReachableApp> {
  return reachableApp(ctx.db, signedInPerson(request), (request.params as { id: string }).id);
}

/** Apps: create, list, read, change, delete; their secret, bot and integrations (under /api/developer). */
export function registerDeveloperAppRoutes(scope: FastifyInstance, ctx: ServerContext): void {
  scope.post('/apps', async (request, reply) => {
    const person = signedInPerson(request);
    const fields = readAppFields(jsonObjectBody(request), 'create');
    const app = await createApp(ctx.db, { ...fields, name: fields.name!, teamId: person.team_id, developerId: person.id, now: ctx.now() });
    return reply.code(201).send({ app: presentDeveloperApp(app, { withSecret: true }) });
  });

  scope.get('/apps', async (request) => {
    const person = signedInPerson(request);
    const apps = await ctx.db.selectFrom('apps').selectAll().where('developer_id', '=', person.id).orderBy('created_at').orderBy('id').execute();
    return { apps: apps.map((app) => presentDeveloperApp(app, { withSecret: true })) };
  });

  scope.get('/apps/:id', async (request) => {
    const { app, isDeveloper } = await appOfRoute(ctx, request);
    return { app: presentDeveloperApp(app, { withSecret: isDeveloper }) };
  });

  scope.patch('/apps/:id', async (request) => {
    const reachable = await appOfRoute(ctx, request);
    const changes = readAppFields(jsonObjectBody(request), 'update');
    requireDeveloperForRouting(reachable, changes);
    const updated = await updateApp(ctx.db, reachable.app.id, changes, ctx.now());
    return { app: presentDeveloperApp(updated, { withSecret: reachable.isDeveloper }) };
  });

  scope.put('/apps/:id/integrations', async (request) => {
    const reachable = await appOfRoute(ctx, request);
    if (request.body === undefined) {
      throw new ApiError('InvalidRequestData', 'Send the whole integrations object as JSON; {} removes every integration.');
    }
    const integrations = requireValidIntegrations(jsonObjectBody(request), '');
    requireDeveloperForRouting(reachable, { integrations });
    await updateApp(ctx.db, reachable.app.id, { integrations }, ctx.now());
    return { integrations };
  });

  scope.delete('/apps/:id', async (request) => {
    const { app } = await appOfRoute(ctx, request);
    await deleteApp(ctx, app.id, ctx.now());
    return { deleted: true };
  });

  scope.post('/apps/:id/secret', async (request) => {
    const reachable = await appOfRoute(ctx, request);
    requireDeveloper(reachable, 'rotate the app secret');
    return rotateAppSecret(ctx.db, reachable.app.id, ctx.now());
  });

  scope.post('/apps/:id/bot', async (request) => {
    const reachable = await appOfRoute(ctx, request);
    requireDeveloper(reachable, 'enable the bot');
    return enableBot(ctx.db, reachable.app.id, ctx.now());
  });

  scope.post('/apps/:id/bot/token', async (request) => {
    const reachable = await appOfRoute(ctx, request);
    requireDeveloper(reachable, 'regenerate the bot token');
    if (reachable.app.bot_user_id === null) throw new ApiError('BotNotEnabled', 'The app has no bot yet; enable it with POST /api/developer/apps/:id/bot.');
    return enableBot(ctx.db, reachable.app.id, ctx.now());
  });
}
