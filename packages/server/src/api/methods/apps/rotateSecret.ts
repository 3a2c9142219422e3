import { api } from '@aviary/protocol';
import { rotateAppSecret } from '../../../core/commands/apps.js';
import { defineHandler } from '../../handler.js';
import { reachAppFor } from '../../developerAccess.js';
import { callerActor, recordAudit } from '../../../core/audit/record.js';

export default defineHandler(api.apps.rotateSecret, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'credentials', 'rotate the app secret');
  const rotated = await rotateAppSecret(ctx, app.id, ctx.now());
  await recordAudit(ctx.db, { teamId: app.team_id, actor: callerActor(caller), at: ctx.now(), action: 'app.secretRotated', target: { kind: 'app', id: app.id } });
  return rotated;
});
