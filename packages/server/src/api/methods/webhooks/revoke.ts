import { api } from '@aviary/protocol';
import { revokeWebhook } from '../../../core/webhooks/webhooks.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.webhooks.revoke, async (params, caller, ctx) => {
  await revokeWebhook(ctx, { user: caller.user, appId: caller.appId }, params);
  return {};
});
