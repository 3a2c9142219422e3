import { api } from '@aviary/protocol';
import { deleteApp } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor } from '../../../core/audit/record.js';

export default defineHandler(api.apps.delete, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'delete', 'delete the app');
  await deleteApp(ctx, callerActor(caller), { appId: app.id });
  return { deleted: true as const };
});
