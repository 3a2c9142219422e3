import { api } from '@aviary/protocol';
import { presentScheduledMessage, scheduleMessage } from '../../../core/scheduled/scheduledMessages.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.scheduleMessage, async (params, caller, ctx) => {
  const row = await scheduleMessage(ctx, { user: caller.user, appId: caller.appId }, params);
  return { scheduledMessage: presentScheduledMessage(row) };
});
