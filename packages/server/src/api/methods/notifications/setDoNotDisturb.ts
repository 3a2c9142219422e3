import { api } from '@aviary/protocol';
import { setDoNotDisturb } from '../../../core/commands/notificationSettings.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.notifications.setDoNotDisturb, async (params, { user }, ctx) => ({ settings: await setDoNotDisturb(ctx, user, params) }));
