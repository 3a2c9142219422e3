import { api } from '@aviary/protocol';
import { listWebhooks, presentWebhook } from '../../../core/webhooks/webhooks.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.webhooks.list, async (params, caller, ctx) => {
  const rows = await listWebhooks(ctx.db, { user: caller.user, appId: caller.appId }, params.channel);
  return { webhooks: rows.map(presentWebhook) };
});
