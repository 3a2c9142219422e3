import { clientRoutes } from '@aviary/protocol';
import { addChannelMembers } from '../../../core/commands/channels.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.addChannelMembers, async ({ channelId, members }, person, ctx) => ({
  members: await addChannelMembers(ctx, person, channelId, members, ctx.now()),
}));
