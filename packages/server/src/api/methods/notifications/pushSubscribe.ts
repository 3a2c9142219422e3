import { api } from '@aviary/protocol';
import { subscribePush } from '../../../core/push/subscriptions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.push.subscribe, async (params, { user }, ctx) => ({ endpoint: await subscribePush(ctx.db, user, params, ctx.now()) }));
