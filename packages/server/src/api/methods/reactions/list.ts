import { api } from '@aviary/protocol';
import { listReactions } from '../../../core/queries/reactions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.reactions.list, async ({ messageUid }, { user }, ctx) => listReactions(ctx.db, user, messageUid));
