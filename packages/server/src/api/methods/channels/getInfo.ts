import { api } from '@aviary/protocol';
import { channelAbilities, findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannel } from '../../../core/presenters/channels.js';
import { defineHandler } from '../../handler.js';

/** A session's answer also says what the person may do to the membership (`abilities`). */
export default defineHandler(api.channels.getInfo, async (params, caller, ctx) => {
  const access = await findVisibleChannel(ctx.db, caller.user, params.channelId);
  const { memberCount } = await ctx.db
    .selectFrom('channel_members')
    .select((eb) => eb.fn.countAll<number>().as('memberCount'))
    .where('channel_id', '=', access.channel.id)
    .executeTakeFirstOrThrow();
  const channel = presentChannel(access.channel, Number(memberCount));
  return caller.kind === 'person' ? { ...channel, abilities: channelAbilities(caller.user, access) } : channel;
});
