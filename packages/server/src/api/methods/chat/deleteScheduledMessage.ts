import { api } from '@aviary/protocol';
import { deleteScheduledMessage } from '../../../core/scheduled/scheduledMessages.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.deleteScheduledMessage, async (params, caller, ctx) => {
  await deleteScheduledMessage(ctx, { user: caller.user, appId: caller.appId }, params);
  return {};
});
