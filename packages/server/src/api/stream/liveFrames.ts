import { isChannelId, type StreamLiveFrame } from '@aviary/protocol';
import type { LiveNotice } from '../../core/stream/live.js';
import type { StreamConnection } from './streamConnection.js';

const encode = (frame: StreamLiveFrame): Buffer => Buffer.from(JSON.stringify(frame));

/**
 * Hands a live notice to the streams of this process it concerns, encoded once: presence to everyone in
 * the team; typing in a channel to its members (as each stream knows them now), in a direct chat to the
 * other person, named by the typist's id as their `to` would be. Never to the typist's own streams.
 */
export function handOutLive(notice: LiveNotice, connections: Iterable<StreamConnection>): void {
  if (notice.kind === 'presence') {
    const frame = encode({ type: 'presence', status: notice.status, userIds: notice.userIds });
    for (const connection of connections) connection.sendLive(frame);
    return;
  }
  const { userId, chat } = notice;
  const inChannel = isChannelId(chat);
  const frame = encode({ type: 'typing', chat: inChannel ? chat : userId, userId });
  for (const connection of connections) {
    if (connection.userId === userId) continue;
    if (inChannel ? connection.channels.has(chat) : connection.userId === chat) connection.sendLive(frame);
  }
}

/** The presence frame a stream gets after its replay: everyone online now. */
export const presenceSnapshot = (userIds: string[]): Buffer => encode({ type: 'presence', status: 'online', userIds });
