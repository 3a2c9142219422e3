import type { StreamDataFrame, Team } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/api/client.js';
import { applyFrames, updatedTeam } from '../src/stream/applyFrames.js';

const ref = { uid: '01JABCDEFGHJKMNPQRSTVWXYZ0', from: 'u:a', to: 'g:c' } as const;
const team = (name: string, icon?: string): Team => ({
  id: 't:aaaaaaaaaaaaaaaa', name, appCreators: 'members', whoMayInvite: 'admins', whoMayCreateChannels: 'members', messageEditWindowMinutes: 0, broadcastMentionLimit: 0,
  ...(icon ? { icon } : {}),
});
const frames: Record<string, StreamDataFrame> = {
  threadUpdated: { type: 'thread.updated', cursor: '1', message: ref, thread: { replyCount: 1, participants: ['u:b'], lastReplyUid: '01JABCDEFGHJKMNPQRSTVWXYZ1', lastReplyAt: 2 } },
  threadFollowed: { type: 'thread.followUpdated', cursor: '2', message: ref, following: true },
  teamUpdated: { type: 'team.updated', cursor: '3', team: team('Northwind') },
  appInstalled: { type: 'app.installed', cursor: '4', appId: 'a:x' },
  appDeleted: { type: 'app.deleted', cursor: '5', appId: 'a:x' },
};

const chat = 'g:cccccccccccccccc';
const channelChat = (unread: number, readUpTo: string): Conversation =>
  ({ chat, kind: 'channel', name: 'c', unread, mentions: 1, readUpTo, lastMessage: { uid: '01JABCDEFGHJKMNPQRSTVWXYZ5', from: 'u:a', to: chat, timestamp: 5, text: 'last' } }) as Conversation;
const created = (uid: string, extra: Record<string, unknown> = {}): StreamDataFrame =>
  ({ type: 'message.created', cursor: '9', message: { uid, from: 'u:a', to: chat, timestamp: 9, text: 'new', ...extra } }) as StreamDataFrame;

describe('the sidebar’s conversations and the workspace, from stream frames', () => {
  it('counts a reply only in its thread nowhere in the channel; one also sent to the channel counts', () => {
    const start = [channelChat(0, '01JABCDEFGHJKMNPQRSTVWXYZ5')];
    const onlyInThread = applyFrames(start, [created('01JABCDEFGHJKMNPQRSTVWXYZ9', { threadParent: ref.uid })], 'u:me', undefined);
    expect(onlyInThread.conversations[0]).toMatchObject({ unread: 0, lastMessage: { text: 'last' } });
    const alsoInChannel = applyFrames(start, [created('01JABCDEFGHJKMNPQRSTVWXYZ9', { threadParent: ref.uid, alsoInChannel: true })], 'u:me', undefined);
    expect(alsoInChannel.conversations[0]).toMatchObject({ unread: 1, lastMessage: { text: 'new' } });
  });

  it('asks for the list again when a deleted message was counted unread (or was the last), not for one already read', () => {
    const deleted = (uid: string, from = 'u:a'): StreamDataFrame => ({ type: 'message.deleted', cursor: '9', message: { uid, from, to: chat }, deletedBy: from }) as StreamDataFrame;
    const reloads = (start: Conversation, frame: StreamDataFrame) => applyFrames([start], [frame], 'u:me', undefined).reloadConversations;
    const halfRead = channelChat(2, '01JABCDEFGHJKMNPQRSTVWXYZ2');
    expect(reloads(halfRead, deleted('01JABCDEFGHJKMNPQRSTVWXYZ3'))).toBe(true);
    expect(reloads(halfRead, deleted('01JABCDEFGHJKMNPQRSTVWXYZ5'))).toBe(true);
    expect(reloads(halfRead, deleted('01JABCDEFGHJKMNPQRSTVWXYZ1'))).toBe(false);
    expect(reloads(halfRead, deleted('01JABCDEFGHJKMNPQRSTVWXYZ3', 'u:me'))).toBe(false);
    expect(reloads(channelChat(0, '01JABCDEFGHJKMNPQRSTVWXYZ5'), deleted('01JABCDEFGHJKMNPQRSTVWXYZ3'))).toBe(false);
  });


  it('asks for the apps again only for a frame about apps, not for a thread’s or the team’s', () => {
    const reloads = (frame: StreamDataFrame) => applyFrames([], [frame], 'u:a', undefined).reloadApps;
    expect([frames.threadUpdated!, frames.threadFollowed!, frames.teamUpdated!].map(reloads)).toEqual([false, false, false]);
    expect([frames.appInstalled!, frames.appDeleted!].map(reloads)).toEqual([true, true]);
  });

  it('takes the team from the batch’s last team.updated', () => {
    expect(updatedTeam([frames.appInstalled!])).toBeUndefined();
    const later: StreamDataFrame = { type: 'team.updated', cursor: '6', team: team('Northwind Traders', '/pictures/abc') };
    expect(updatedTeam([frames.teamUpdated!, frames.threadUpdated!, later])).toEqual(team('Northwind Traders', '/pictures/abc'));
  });
});
