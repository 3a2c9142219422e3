import { api } from '@aviary/protocol';
import { findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannelMember } from '../../../core/presenters/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.listMembers, async (params, caller, ctx) => {
  const { channel } = await findVisibleChannel(ctx.db, caller.user, params.channelId);
  const rows = await ctx.db
    .selectFrom('channel_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.affiliation', 'u.first_name', 'u.last_name', 'u.profile_image'])
    .where('m.channel_id', '=', channel.id)
    // Moderators first, then in the order people joined.
    .orderBy((eb) => eb.case().when('m.affiliation', '=', 'moderator').then(0).else(1).end())
    .orderBy('m.joined_at')
    .orderBy('m.user_id')
    .execute();
  return rows.map((row) => presentChannelMember(row, params.showPublicProfile === true));
});
