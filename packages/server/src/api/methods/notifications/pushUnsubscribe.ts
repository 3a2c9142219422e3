import { api } from '@aviary/protocol';
import { unsubscribePush } from '../../../core/push/subscriptions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.push.unsubscribe, async ({ endpoint }, { user }, ctx) => {
  await unsubscribePush(ctx.db, user, endpoint);
  return { endpoint };
});
