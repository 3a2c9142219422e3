import { api } from '@aviary/protocol';
import { changeReaction } from '../../../core/commands/reactions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.reactions.add, async ({ messageUid, emoji }, caller, ctx) => changeReaction(ctx, caller, { messageUid, emoji, added: true }));
