import { api } from '@aviary/protocol';
import { notificationSettingsOf } from '../../../core/queries/notificationSettings.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.notifications.getSettings, async (_params, { user }, ctx) => ({ settings: await notificationSettingsOf(ctx.db, user) }));
