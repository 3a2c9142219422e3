import { api } from '@aviary/protocol';
import { createChannel } from '../../../core/commands/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.create, async (params, caller, ctx) => {
  const { channel, members } = await createChannel(ctx, caller, params);
  return { id: channel.id, members };
});
