import { api } from '@aviary/protocol';
import { createWebhook, presentWebhook } from '../../../core/webhooks/webhooks.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.webhooks.create, async (params, caller, ctx) => {
  const { row, secret } = await createWebhook(ctx, { user: caller.user, appId: caller.appId }, params);
  const path = `/hooks/${row.id}/${secret}`;
  const base = ctx.config.publicUrl?.replace(/\/+$/, '') ?? '';
  return { webhook: presentWebhook(row), url: `${base}${path}`, path };
});
