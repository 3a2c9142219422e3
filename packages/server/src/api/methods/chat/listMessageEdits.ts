import { api } from '@aviary/protocol';
import { listMessageEdits } from '../../../core/queries/messageEdits.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.chat.listMessageEdits, async ({ messageUid }, { user }, ctx) => ({ uid: messageUid, edits: await listMessageEdits(ctx.db, user, messageUid) }));
