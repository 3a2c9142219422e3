import { api } from '@aviary/protocol';
import { listMentions } from '../../../core/queries/mentions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.listMentions, async ({ cursor, limit }, { user }, ctx) => listMentions(ctx.db, user, { cursor, limit }));
