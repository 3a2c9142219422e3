import { api } from '@aviary/protocol';
import { subscribePush } from '../../../core/commands/pushSubscriptions.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.push.subscribe, async (params, { user, sessionHash }, ctx) => ({ endpoint: await subscribePush(ctx, { person: user, sessionHash }, params) }));
