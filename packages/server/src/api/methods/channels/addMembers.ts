import { api } from '@aviary/protocol';
import { addChannelMembers } from '../../../core/commands/channels.js';
import { defineHandler } from '../../handler.js';
import { sessionReach } from './sessionReach.js';

export default defineHandler(api.channels.addMembers, async (params, caller, ctx) => ({
  members: await addChannelMembers(ctx, caller.user, params.channelId, params.members, ctx.now(), caller.appId, sessionReach(caller)),
}));
