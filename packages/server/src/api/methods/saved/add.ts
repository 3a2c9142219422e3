import { api } from '@aviary/protocol';
import { saveMessage } from '../../../core/commands/saved.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.saved.add, async ({ messageUid }, { user }, ctx) => ({ messageUid, savedAt: await saveMessage(ctx, user, { messageUid }) }));
