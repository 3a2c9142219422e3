import { api } from '@aviary/protocol';
import { rotateAppSecret } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor } from '../../../core/audit/record.js';

export default defineHandler(api.apps.rotateSecret, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'credentials', 'rotate the app secret');
  const rotated = await rotateAppSecret(ctx, callerActor(caller), { appId: app.id });
  return rotated;
});
