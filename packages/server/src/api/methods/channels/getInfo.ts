import { api } from '@aviary/protocol';
import { channelAbilities, findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannel } from '../../../core/presenters/channels.js';
import { countChannelMembers } from '../../../core/queries/channels.js';
import { defineHandler } from '../../handler.js';

/** A session's answer also says what the person may do to the membership (`abilities`). */
export default defineHandler(api.channels.getInfo, async (params, caller, ctx) => {
  const access = await findVisibleChannel(ctx.db, caller.user, params.channelId);
  const channel = presentChannel(access.channel, await countChannelMembers(ctx.db, access.channel.id));
  return caller.kind === 'person' ? { ...channel, abilities: channelAbilities(caller.user, access) } : channel;
});
