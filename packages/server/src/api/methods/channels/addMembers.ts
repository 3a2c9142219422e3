import { api } from '@aviary/protocol';
import { addChannelMembers } from '../../../core/commands/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.addMembers, async (params, caller, ctx) => ({
  members: await addChannelMembers(ctx, caller, params),
}));
