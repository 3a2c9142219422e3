import { api } from '@aviary/protocol';
import { vapidKeys } from '../../../core/push/vapidKeys.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.push.getPublicKey, async (_params, _caller, ctx) => ({ publicKey: (await vapidKeys(ctx.store, ctx.now)).publicKey }));
