import type { StreamDataFrame, Team } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
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

describe('the sidebar’s conversations and the workspace, from stream frames', () => {
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
