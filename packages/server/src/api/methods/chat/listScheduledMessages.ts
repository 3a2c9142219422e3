import { api } from '@aviary/protocol';
import { listScheduledMessages, presentScheduledMessage } from '../../../core/scheduled/scheduledMessages.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.listScheduledMessages, async (params, caller, ctx) => {
  const rows = await listScheduledMessages(ctx.db, { user: caller.user, appId: caller.appId }, params.to);
  return { scheduledMessages: rows.map(presentScheduledMessage) };
});
