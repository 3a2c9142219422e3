import type { ChannelModel } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { Database, UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { Selectable } from 'kysely';
import { byPerson, recordAudit } from '../audit/record.js';
import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { checkVisibleName } from '../names.js';
import { presentChannel } from '../presenters/channels.js';
import { channelUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import type { AdminActor } from './administerPeople.js';
import { findVisibleChannel, hasModeratorPowers } from '../policies/channels.js';
import { lockChannelPosting } from '../../store/rows/locks.js';
import { holdAdminStanding } from './internal/personRows.js';

type ChannelRow = Selectable<Database['channels']>;

/** What a team admin may change about a channel from the console. */
export type ChannelChange = { kind: 'archive' } | { kind: 'unarchive' } | { kind: 'rename'; name: string } | { kind: 'convertToPrivate' };

/** Any channel of the admin's team, private ones the admin is not in too; UnknownChannel for anything else. */
async function teamChannel(tx: Tx, teamId: string, channelId: string): Promise<ChannelRow> {
  const channel = await tx.selectFrom('channels').selectAll().where('id', '=', channelId).where('team_id', '=', teamId).executeTakeFirst();
  if (!channel) throw new ApiError('UnknownChannel', `There is no channel ${channelId} in your team.`, { parameter: 'channelId' });
  return channel;
}

/**
 * The channel, when the person may make this change to it: a team admin (still one: holdAdminStanding)
 * any change to any channel of the team; a channel's moderator renaming it, while it is not archived.
 */
async function changeableChannel(tx: Tx, person: UsersTable, channelId: string, change: ChannelChange): Promise<ChannelRow> {
  if (person.role === 'admin') {
    await holdAdminStanding(tx, person);
    return teamChannel(tx, person.team_id, channelId);
  }
  const access = await findVisibleChannel(tx, person, channelId);
  if (change.kind !== 'rename' || !hasModeratorPowers(person, access)) {
    throw new ApiError('PermissionDenied', 'Only the channel’s moderators and team admins may rename it.', { parameter: 'channelId' });
  }
  if (access.channel.archived_at !== null) {
    throw new ApiError('ChannelArchived', `#${access.channel.name} is archived: only a team admin may rename it.`, { parameter: 'channelId' });
  }
  return access.channel;
}

function valuesFor(change: ChannelChange, channel: ChannelRow, now: number): Partial<ChannelRow> | undefined {
  switch (change.kind) {
    case 'archive':
      return channel.archived_at === null ? { archived_at: now } : undefined;
    case 'unarchive':
      return channel.archived_at !== null ? { archived_at: null } : undefined;
    case 'rename':
      return change.name !== channel.name ? { name: change.name } : undefined;
    case 'convertToPrivate':
      return channel.type === 'public' ? { type: 'private' } : undefined;
  }
}

const actions: Record<ChannelChange['kind'], string> = {
  archive: 'channel.archived',
  unarchive: 'channel.unarchived',
  rename: 'channel.renamed',
  convertToPrivate: 'channel.madePrivate',
};

/**
 * A team admin's change to a channel (or a moderator's renaming of theirs): recorded in the audit log, and heard by its members on the stream
 * (`channel.updated`). A change that changes nothing (archiving an archived channel) is no change and
 * records nothing.
 */
export async function changeChannel(ctx: CoreContext, { admin, address }: AdminActor, { channelId, change }: { channelId: string; change: ChannelChange }): Promise<ChannelModel> {
  const checked: ChannelChange = change.kind === 'rename' ? { kind: 'rename', name: checkVisibleName('name', change.name.trim()) } : change;
  const now = ctx.now();
  return runChange(ctx, async (tx, effects) => {
    // Archiving stops every send: those under way are waited for, and those meanwhile read it.
    if (checked.kind === 'archive') await lockChannelPosting(tx, channelId, 'close');
    const channel = await changeableChannel(tx, admin, channelId, checked);
    const values = valuesFor(checked, channel, now);
    if (values !== undefined) await tx.updateTable('channels').set(values).where('id', '=', channelId).execute();
    const after = { ...channel, ...values };
    const memberCount = await tx.selectFrom('channel_members').select((eb) => eb.fn.countAll().as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow();
    const presented = presentChannel(after, Number(memberCount.n));
    if (values === undefined) return presented;
    const details = checked.kind === 'rename' ? { from: channel.name, to: checked.name } : undefined;
    await recordAudit(tx, { ...byPerson(admin, address), at: now, action: actions[checked.kind], target: { kind: 'channel', id: channelId }, details });
    await recordStreamEntries(tx, effects, admin.team_id, [channelUpdated(presented)], now);
    return presented;
  });
}
