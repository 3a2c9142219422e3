import { api } from '@aviary/protocol';
import { listAppWebhooks, presentWebhook } from '../../../core/webhooks/webhooks.js';
import { reachAppFor } from '../../developerAccess.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.apps.listWebhooks, async ({ appId }, caller, ctx) => {
  const app = await reachAppFor(ctx.db, caller, appId, 'see', 'see its webhooks');
  return { webhooks: (await listAppWebhooks(ctx.db, app.id)).map(presentWebhook) };
});
