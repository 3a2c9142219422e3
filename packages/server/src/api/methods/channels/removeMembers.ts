import { api } from '@aviary/protocol';
import { removeChannelMembers } from '../../../core/commands/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.removeMembers, async (params, caller, ctx) => ({
  members: await removeChannelMembers(ctx, caller, params),
}));
