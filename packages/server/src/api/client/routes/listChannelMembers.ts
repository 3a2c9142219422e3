import { clientRoutes } from '@aviary/protocol';
import { channelAbilities, findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannel, presentChannelMember } from '../../../core/presenters/channels.js';
import { listChannelMemberRows } from '../../../core/queries/channels.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.listChannelMembers, async ({ channelId }, person, ctx) => {
  const access = await findVisibleChannel(ctx.db, person, channelId);
  const rows = await listChannelMemberRows(ctx.db, channelId);
  const abilities = channelAbilities(person, access);
  return {
    channel: presentChannel(access.channel, rows.length),
    members: rows.map((row) => presentChannelMember(row, true)),
    canAddMembers: abilities.addMembers,
    canRemoveMembers: abilities.removeMembers,
  };
});
