import { clientRoutes } from '@aviary/protocol';
import { createChannel } from '../../../core/commands/channels.js';
import { presentChannel } from '../../../core/presenters/channels.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The same command as /v1 channels.create: its rules, its channel.created frame. */
export default defineRouteHandler(clientRoutes.createChannel, async (params, person, ctx) => {
  const { channel, members } = await createChannel(ctx, person, { ...params, members: params.members ?? [] }, ctx.now());
  const added = Object.values(members).filter((entry) => entry.status === 'added').length;
  return { channel: presentChannel(channel, 1 + added), members };
});
