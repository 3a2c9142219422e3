import type { FramePayload } from './entries.js';

/** How an entry changes who is in a channel: the people who joined or left it. */
export type MembershipChange = { channelId: string; joined: readonly string[] } | { channelId: string; left: readonly string[] };

/**
 * The change of membership a stream entry records, if any. A reader that keeps its channels in memory
 * applies it before asking `mayReceive`, so that people who joined receive the entry and people who
 * left receive it through its audience's `also`.
 */
export function membershipChange(type: string, payload: unknown): MembershipChange | undefined {
  switch (type) {
    case 'channel.created': {
      const { channel, memberIds } = payload as FramePayload<'channel.created'>;
      return { channelId: channel.id, joined: memberIds };
    }
    case 'channel.membersAdded': {
      const { channel, userIds } = payload as FramePayload<'channel.membersAdded'>;
      return { channelId: channel.id, joined: userIds };
    }
    case 'channel.membersRemoved': {
      const { channel, userIds } = payload as FramePayload<'channel.membersRemoved'>;
      return { channelId: channel.id, left: userIds };
    }
    default:
      return undefined;
  }
}

/**
 * The channels a person was in before `changes` (oldest first) happened, from those they are in after:
 * each change undone, newest first. A channel's creation or added people were not in it before; people
 * removed were.
 */
export function channelsBefore(after: Iterable<string>, userId: string, changes: readonly MembershipChange[]): Set<string> {
  const channels = new Set(after);
  for (const change of [...changes].reverse()) {
    if ('joined' in change) {
      if (change.joined.includes(userId)) channels.delete(change.channelId);
    } else if (change.left.includes(userId)) {
      channels.add(change.channelId);
    }
  }
  return channels;
}
