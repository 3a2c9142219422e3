import { api } from '@aviary/protocol';
import { sendMessage } from '../../../core/commands/sendMessage.js';
import { messageTriggers } from '../../../core/triggers/messageTriggers.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.sendMessage, async (params, caller, ctx) => {
  const triggers = messageTriggers(ctx);
  const { message } = await sendMessage(ctx, caller.user, caller.appId, params, triggers);
  triggers.afterCommit();
  return { uid: message.uid };
});
