import { api } from '@aviary/protocol';
import { sendMessage } from '../../../core/commands/sendMessage.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.sendMessage, async (params, caller, ctx) => {
  const { message } = await sendMessage(ctx, caller, params);
  return { uid: message.uid };
});
