import { api } from '@aviary/protocol';
import { findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannelMember } from '../../../core/presenters/channels.js';
import { listChannelMemberRows } from '../../../core/queries/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.listMembers, async (params, caller, ctx) => {
  const { channel } = await findVisibleChannel(ctx.db, caller.user, params.channelId);
  const rows = await listChannelMemberRows(ctx.db, channel.id);
  return rows.map((row) => presentChannelMember(row, params.showPublicProfile === true));
});
