import { api } from '@aviary/protocol';
import { listChatFiles } from '../../../core/files/listFiles.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.files.list, async ({ chat, cursor, limit }, { user }, ctx) => listChatFiles(ctx.db, user, chat, { cursor, limit }));
