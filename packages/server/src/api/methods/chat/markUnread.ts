import { api } from '@aviary/protocol';
import { markChatUnread } from '../../../core/commands/readMarkers.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.markUnread, async ({ chat, uid }, { user }, ctx) => markChatUnread(ctx, user, { chat, uid }));
