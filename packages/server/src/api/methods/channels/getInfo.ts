import { api } from '@aviary/protocol';
import { findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannel } from '../../../core/presenters/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.getInfo, async (params, caller, ctx) => {
  const { channel } = await findVisibleChannel(ctx.db, caller.user, params.channelId);
  const { memberCount } = await ctx.db
    .selectFrom('channel_members')
    .select((eb) => eb.fn.countAll<number>().as('memberCount'))
    .where('channel_id', '=', channel.id)
    .executeTakeFirstOrThrow();
  return presentChannel(channel, Number(memberCount));
});
