import { api } from '@aviary/protocol';
import { findManagedChannel } from '../../../core/policies/channels.js';
import { presentChannelMember } from '../../../core/presenters/channels.js';
import { listChannelMemberRows } from '../../../core/queries/channels.js';
import { defineHandler } from '../../handler.js';

/** A team admin's session lists the members of any channel of the team (the admin console manages them); anyone else, of the channels they see. */
export default defineHandler(api.channels.listMembers, async (params, caller, ctx) => {
  const { channel } = await findManagedChannel(ctx.db, caller.user, params.channelId, caller.kind === 'person');
  const rows = await listChannelMemberRows(ctx.db, channel.id);
  return rows.map((row) => presentChannelMember(row, params.showPublicProfile === true));
});
