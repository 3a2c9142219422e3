import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { installApp, setAppDisabledByTeam, setAppDisabledByUser, uninstallApp } from '../../core/commands/installs.js';
import { presentClientApp } from '../../core/presenters/apps.js';
import { requireSession, signedInPerson } from '../session/auth.js';

/**
 * /api/client/apps: the apps of the person's team and their own install of each. Installing never
 * shows the person the app's token for them: only the app receives it, in `app.install`.
 */
export function registerClientAppRoutes(app: FastifyInstance, ctx: ServerContext): void {
  void app.register(
    async (scope) => {
      requireSession(scope, ctx);

      scope.get('/apps', async (request) => {
        const person = signedInPerson(request);
        const apps = await ctx.db.selectFrom('apps').selectAll().where('team_id', '=', person.team_id).orderBy('name').orderBy('id').execute();
        const installs = await ctx.db.selectFrom('installs').select(['app_id', 'disabled_by_user']).where('user_id', '=', person.id).execute();
        const installOf = new Map(installs.map((install) => [install.app_id, install]));
        return { apps: apps.map((row) => presentClientApp(row, installOf.get(row.id))) };
      });

      scope.post('/apps/:id/install', async (request) => {
        await installApp(ctx, target(request));
        return { installed: true };
      });

      scope.post('/apps/:id/uninstall', async (request) => {
        await uninstallApp(ctx, target(request));
        return { installed: false };
      });

      for (const [path, disabled] of [['disable', true], ['enable', false]] as const) {
        scope.post(`/apps/:id/${path}`, async (request) => {
          await setAppDisabledByUser(ctx, { ...target(request), disabled });
          return { disabledByUser: disabled };
        });
      }

      for (const [path, disabled] of [['team-disable', true], ['team-enable', false]] as const) {
        scope.post(`/apps/:id/${path}`, async (request) => {
          const { appId, userId } = target(request);
          await setAppDisabledByTeam(ctx, { appId, adminId: userId, disabled });
          return { disabledByTeam: disabled };
        });
      }
    },
    { prefix: '/api/client' },
  );
}

function target(request: FastifyRequest): { appId: string; userId: string } {
  return { appId: (request.params as { id: string }).id, userId: signedInPerson(request).id };
}
