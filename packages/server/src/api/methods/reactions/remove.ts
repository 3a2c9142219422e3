import { api } from '@aviary/protocol';
import { changeReaction } from '../../../core/commands/reactions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.reactions.remove, async ({ messageUid, emoji }, caller, ctx) => changeReaction(ctx, caller, { messageUid, emoji, added: false }));
