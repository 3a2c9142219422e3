import type { ChannelCreatedEvent, ChannelMemberJoinedEvent, ChannelMemberLeftEvent } from '@aviary/protocol';
import { enqueueEvent } from '../../events/outbox/enqueue.js';
import type { ChannelsTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { Effects } from '../effects/effects.js';

/** The Aviary extensions about a channel's membership. */
export type ChannelChangeEvent = ChannelCreatedEvent | ChannelMemberJoinedEvent | ChannelMemberLeftEvent;

/** The channel as the events name it. */
export const channelEventRef = (channel: Pick<ChannelsTable, 'id' | 'name' | 'type'>): ChannelCreatedEvent['channel'] => ({
  id: channel.id,
  name: channel.name,
  type: channel.type,
});

/**
 * The apps that see into the channel: those a member installed (their user token reads it; an install the
 * member disabled does not count), and any whose bot is a member (bots are not members today). Read after
 * the change for a member who joined or a channel created, before it for a member who left (so that the
 * app of the member leaving hears of it). Two queries, however many members the channel has.
 */
export async function appsInChannel(tx: Tx, channelId: string): Promise<string[]> {
  const installed = await tx
    .selectFrom('channel_members')
    .innerJoin('installs', 'installs.user_id', 'channel_members.user_id')
    .select('installs.app_id')
    .distinct()
    .where('channel_members.channel_id', '=', channelId)
    .where('installs.disabled_by_user', '=', 0)
    .execute();
  const bots = await tx
    .selectFrom('channel_members')
    .innerJoin('users', 'users.id', 'channel_members.user_id')
    .select('users.bot_app_id')
    .distinct()
    .where('channel_members.channel_id', '=', channelId)
    .where('users.bot_app_id', 'is not', null)
    .execute();
  const ids = new Set([...installed.map((row) => row.app_id), ...bots.flatMap((row) => (row.bot_app_id === null ? [] : [row.bot_app_id]))]);
  return [...ids].sort();
}

/**
 * Tells the apps that see into the channel (`appIds`, from `appsInChannel`) of a change of its
 * membership, in the change's transaction: each event to each of them. Never the app whose token made
 * the change (it knows), nor one a team admin disabled; and, as for every Aviary extension, only an app
 * that subscribed to the event (enqueueEvent asks). A private channel's existence so reaches no app that no
 * member of it installed.
 */
export async function enqueueChannelChangeEvents(
  tx: Tx,
  effects: Effects,
  appIds: readonly string[],
  change: { events: readonly ChannelChangeEvent[]; byAppId: string | null },
  now: number,
): Promise<void> {
  const concerned = appIds.filter((id) => id !== change.byAppId);
  if (concerned.length === 0 || change.events.length === 0) return;
  const enabled = await tx.selectFrom('apps').select('id').where('id', 'in', concerned).where('disabled_by_team', '=', 0).orderBy('id').execute();
  for (const { id: appId } of enabled) {
    for (const event of change.events) {
      const queued = await enqueueEvent(tx, { appId, userId: event.userId, event }, now);
      if (queued) effects.add({ kind: 'deliverEvents', appId, eventId: queued.eventId });
    }
  }
}
