import { api } from '@aviary/protocol';
import { markChatRead } from '../../../core/commands/readMarkers.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.markRead, async ({ chat, uid }, { user }, ctx) => markChatRead(ctx, user, { chat, uid }));
