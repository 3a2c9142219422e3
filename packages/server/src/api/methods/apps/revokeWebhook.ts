import { api } from '@aviary/protocol';
import { revokeAppWebhook } from '../../../core/webhooks/webhooks.js';
import { callerActor } from '../../../core/audit/record.js';
import { reachAppFor } from '../../developerAccess.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.apps.revokeWebhook, async ({ appId, webhook }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'edit', 'revoke its webhooks');
  await revokeAppWebhook(ctx, callerActor(caller), { appId: app.id, webhook });
  return {};
});
