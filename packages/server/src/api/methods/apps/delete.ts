import { api } from '@aviary/protocol';
import { deleteApp } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.apps.delete, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'delete', 'delete the app');
  await deleteApp(ctx, app.id, ctx.now());
  await recordAudit(ctx.db, { teamId: app.team_id, actor: callerActor(caller), at: ctx.now(), action: 'app.deleted', target: { kind: 'app', id: app.id }, details: { name: app.name } });
  return { deleted: true as const };
});
