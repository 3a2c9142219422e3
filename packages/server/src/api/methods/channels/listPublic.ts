import { api } from '@aviary/protocol';
import { presentChannel } from '../../../core/presenters/channels.js';
import { listPublicChannels } from '../../../core/queries/channels.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.channels.listPublic, async (_params, { user: person }, ctx) => {
  const rows = await listPublicChannels(ctx.db, person);
  return { channels: rows.map((row) => ({ channel: presentChannel(row.channel, row.memberCount), isMember: row.isMember })) };
});
