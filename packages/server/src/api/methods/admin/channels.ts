import { api } from '@aviary/protocol';
import { changeChannel, type ChannelChange } from '../../../core/commands/administerChannels.js';
import { requireTeamAdmin } from '../../../core/policies/admin.js';
import { defineHandler } from '../../handler.js';

/** channels.archive, unarchive, rename and convertToPrivate: a team admin's, on any channel of the team. */
const handle = <D extends typeof api.channels.archive | typeof api.channels.unarchive | typeof api.channels.convertToPrivate>(method: D, change: ChannelChange, what: string) =>
  defineHandler(method, async ({ channelId }, { user, clientAddress }, ctx) => {
    requireTeamAdmin(user, what);
    return { channel: await changeChannel(ctx, { admin: user, address: clientAddress }, { channelId, change }) };
  });

export const channelsArchive = handle(api.channels.archive, { kind: 'archive' }, 'archive a channel');
export const channelsUnarchive = handle(api.channels.unarchive, { kind: 'unarchive' }, 'unarchive a channel');
export const channelsConvertToPrivate = handle(api.channels.convertToPrivate, { kind: 'convertToPrivate' }, 'make a channel private');

/** A team admin renames any channel of the team; a channel's moderator renames theirs (changeChannel says who may). */
export const channelsRename = defineHandler(api.channels.rename, async ({ channelId, name }, { user, clientAddress }, ctx) => {
  return { channel: await changeChannel(ctx, { admin: user, address: clientAddress }, { channelId, change: { kind: 'rename', name } }) };
});
