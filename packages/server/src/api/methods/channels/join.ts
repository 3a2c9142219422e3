import { api } from '@aviary/protocol';
import { addChannelMembers } from '../../../core/commands/channels.js';
import { findVisibleChannel } from '../../../core/policies/channels.js';
import { presentChannel } from '../../../core/presenters/channels.js';
import { listChannelMemberRows } from '../../../core/queries/channels.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/** Joining is adding oneself, under the same rules as /v1 channels.addMembers (a private channel cannot be joined). */
export default defineHandler(api.channels.join, async ({ channelId }, { user: person, appId }, ctx) => {
  // A member (of a private channel too) is already where joining would take them: no change, not a refusal.
  if (!(await findVisibleChannel(ctx.db, person, channelId)).membership) {
    const status = (await addChannelMembers(ctx, { user: person, appId }, { channelId, members: [person.id] }))[person.id];
    if (status?.status === 'failed' && status.error !== 'AlreadyMember') {
      throw new ApiError('PermissionDenied', `You cannot join this channel (${status.error}); ask one of its moderators to add you.`, { parameter: 'channelId' });
    }
  }
  const { channel } = await findVisibleChannel(ctx.db, person, channelId);
  return { channel: presentChannel(channel, (await listChannelMemberRows(ctx.db, channelId)).length) };
});
