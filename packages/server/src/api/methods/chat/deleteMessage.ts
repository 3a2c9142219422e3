import { api } from '@aviary/protocol';
import { deleteMessage } from '../../../core/commands/deleteMessage.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.deleteMessage, async ({ messageUid }, caller, ctx) => {
  const { deletedAt } = await deleteMessage(ctx, caller, { messageUid });
  return { uid: messageUid, deletedAt };
});
