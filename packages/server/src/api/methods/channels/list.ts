import { api } from '@aviary/protocol';
import { presentChannel } from '../../../core/presenters/channels.js';
import { listChannelsOf } from '../../../core/queries/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.list, async (_params, caller, ctx) =>
  (await listChannelsOf(ctx.db, caller.user.id)).map(({ channel, memberCount }) => presentChannel(channel, memberCount)),
);
