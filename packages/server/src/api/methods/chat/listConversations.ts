import { api } from '@aviary/protocol';
import { listConversations } from '../../../core/queries/conversations.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.listConversations, async (_params, { user }, ctx) => ({
  conversations: await listConversations(ctx.db, user),
}));
