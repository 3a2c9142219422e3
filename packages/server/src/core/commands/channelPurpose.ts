import type { ChannelModel } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import { lockChannelPosting } from '../../store/rows/locks.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { findManagedChannel, maySetPurpose } from '../policies/channels.js';
import { presentChannel } from '../presenters/channels.js';
import { channelUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import type { ChannelChanger } from './channels.js';
import { memberCount } from './internal/channelRows.js';

/**
 * channels.setPurpose: what a channel is about, trimmed (empty or absent clears it). Those who see the channel hear
 * of it on the stream (`channel.updated`); a purpose that changes nothing is no change. Refused while the
 * channel is archived, and an archive under way is waited for (the channel's posting gate, as a send).
 */
export async function setChannelPurpose(ctx: CommandContext, { user: person }: ChannelChanger, { channelId, purpose = '' }: { channelId: string; purpose?: string | undefined }): Promise<ChannelModel> {
  const text = purpose.trim();
  return runChange(ctx, async (tx, effects) => {
    await lockChannelPosting(tx, channelId, 'post');
    const access = await findManagedChannel(tx, person, channelId, true);
    if (!maySetPurpose(person, access)) {
      throw new ApiError('PermissionDenied', 'Only the channel’s members (guests excepted) and team admins may change what it is about.', { parameter: 'channelId' });
    }
    const { channel } = access;
    if (channel.archived_at !== null) {
      throw new ApiError('ChannelArchived', `#${channel.name} is archived: it takes no changes until a team admin unarchives it.`, { parameter: 'channelId' });
    }
    const presented = presentChannel({ ...channel, purpose: text }, await memberCount(tx, channelId));
    if (text === channel.purpose) return presented;
    await tx.updateTable('channels').set({ purpose: text }).where('id', '=', channelId).execute();
    await recordStreamEntries(tx, effects, channel.team_id, [channelUpdated(presented)], ctx.now());
    return presented;
  });
}
