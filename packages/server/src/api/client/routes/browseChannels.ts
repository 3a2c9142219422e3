import { clientRoutes } from '@aviary/protocol';
import { presentChannel } from '../../../core/presenters/channels.js';
import { listPublicChannels } from '../../../core/queries/channels.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.browseChannels, async (_params, person, ctx) => {
  const rows = await listPublicChannels(ctx.db, person);
  return { channels: rows.map((row) => ({ channel: presentChannel(row.channel, row.memberCount), isMember: row.isMember })) };
});
