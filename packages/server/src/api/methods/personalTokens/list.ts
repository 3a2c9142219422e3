import { api } from '@aviary/protocol';
import { listPersonalTokens } from '../../../core/queries/personalTokens.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.personalTokens.list, async (_params, { user }, ctx) => ({ personalTokens: await listPersonalTokens(ctx.db, user.id, ctx.now()) }));
