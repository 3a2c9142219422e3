import { api } from '@aviary/protocol';
import { setChatLevel } from '../../../core/commands/notificationSettings.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.notifications.setChatLevel, async ({ chat, level }, { user }, ctx) => ({ settings: await setChatLevel(ctx, user, { chat, level }) }));
