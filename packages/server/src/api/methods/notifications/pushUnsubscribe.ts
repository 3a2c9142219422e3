import { api } from '@aviary/protocol';
import { unsubscribePush } from '../../../core/commands/pushSubscriptions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.push.unsubscribe, async (params, { user }, ctx) => {
  await unsubscribePush(ctx, user, params);
  return { endpoint: params.endpoint };
});
