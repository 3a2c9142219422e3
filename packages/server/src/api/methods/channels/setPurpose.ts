import { api } from '@aviary/protocol';
import { setChannelPurpose } from '../../../core/commands/channelPurpose.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.setPurpose, async (params, { user, appId }, ctx) => ({ channel: await setChannelPurpose(ctx, { user, appId }, params) }));
