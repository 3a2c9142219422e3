import { clientRoutes } from '@aviary/protocol';
import { removeChannelMembers } from '../../../core/commands/channels.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.removeChannelMembers, async ({ channelId, members }, person, ctx) => ({
  members: await removeChannelMembers(ctx, person, channelId, members, ctx.now()),
}));
