import type { ChannelMemberModel, ChannelModel } from '@aviary/protocol';
import type { ChannelMembersTable, ChannelsTable } from '../../store/schema.js';
import { setFields } from './setFields.js';
import { presentPublicProfile, type PublicProfileRow } from './users.js';

/** `archived_at` (migration 0028) is on every row read from the store; a row made in memory may leave it out. */
export function presentChannel(row: ChannelsTable & { archived_at?: number | null }, memberCount: number): ChannelModel {
  return {
    id: row.id,
    name: row.name,
    purpose: row.purpose,
    type: row.type,
    memberCount,
    ...setFields({ profileImage: row.profile_image }),
    ...(row.archived_at !== undefined && row.archived_at !== null ? { archivedAt: Number(row.archived_at) } : {}),
  };
}

export type ChannelMemberRow = Pick<ChannelMembersTable, 'user_id' | 'affiliation'> & Omit<PublicProfileRow, 'id'>;

/** `withPublicProfile` answers channels.listMembers' `showPublicProfile`. */
export function presentChannelMember(row: ChannelMemberRow, withPublicProfile: boolean): ChannelMemberModel {
  return {
    userId: row.user_id,
    affiliation: row.affiliation,
    ...(withPublicProfile ? { publicProfile: presentPublicProfile({ id: row.user_id, ...row }) } : {}),
  };
}
