/** The client API's channel routes: creating, browsing, joining, and the members of a channel. */
import type { ChannelMemberModel, ChannelMemberStatusModel, ChannelModel } from '@aviary/protocol';
import { post, request } from './client';

export type Channel = ChannelModel;
export type ChannelMember = ChannelMemberModel;
export type MemberStatuses = Record<string, ChannelMemberStatusModel>;

export interface ChannelMembers {
  channel: Channel;
  members: ChannelMember[];
  canAddMembers: boolean;
  canRemoveMembers: boolean;
}

const channelPath = (channelId: string) => `/api/client/channels/${encodeURIComponent(channelId)}`;

export const channelsApi = {
  create: (input: { name: string; purpose?: string; type: 'public' | 'private'; members?: string[] }) =>
    post<{ channel: Channel; members: MemberStatuses }>('/api/client/channels', input),
  browse: () => request<{ channels: { channel: Channel; isMember: boolean }[] }>('GET', '/api/client/channels/public'),
  join: (channelId: string) => post<{ channel: Channel }>(`${channelPath(channelId)}/join`),
  members: (channelId: string) => request<ChannelMembers>('GET', `${channelPath(channelId)}/members`),
  addMembers: (channelId: string, members: string[]) => post<{ members: MemberStatuses }>(`${channelPath(channelId)}/members/add`, { members }),
  removeMembers: (channelId: string, members: string[]) => post<{ members: MemberStatuses }>(`${channelPath(channelId)}/members/remove`, { members }),
};
