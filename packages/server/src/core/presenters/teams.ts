import type { Team } from '@aviary/protocol';
import type { TeamRow } from '../../store/schema.js';

export type PresentedTeamRow = Pick<TeamRow, 'id' | 'name' | 'app_creators' | 'who_may_invite' | 'message_edit_window_ms' | 'who_may_create_channels' | 'broadcast_mention_limit'> & Partial<Pick<TeamRow, 'icon_url'>>;

export function presentTeam(team: PresentedTeamRow): Team {
  return {
    id: team.id,
    name: team.name,
    appCreators: team.app_creators,
    whoMayInvite: team.who_may_invite,
    whoMayCreateChannels: team.who_may_create_channels,
    messageEditWindowMinutes: Math.round(team.message_edit_window_ms / 60_000),
    broadcastMentionLimit: team.broadcast_mention_limit,
    ...(team.icon_url ? { icon: team.icon_url } : {}),
  };
}
