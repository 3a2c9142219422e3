import { api } from '@aviary/protocol';
import { updateMessage } from '../../../core/commands/updateMessage.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.updateMessage, async (params, caller, ctx) => {
  const { message, editedAt } = await updateMessage(ctx, caller, params);
  return { uid: message.uid, editedAt };
});
