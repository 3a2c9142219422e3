import { ApiError } from '../../errors.js';
import type { TeamRow, UsersTable } from '../../store/schema.js';

/**
 * Who may use the admin console's methods (docs/reference/methods.md, admin.*): a team admin's session,
 * in their own team. Everyone else gets PermissionDenied with what they tried, so a member sees at once
 * that the action exists and is an admin's.
 */
export function requireTeamAdmin(person: Pick<UsersTable, 'role'>, what: string): void {
  if (person.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may ${what}; ask one of your team's admins.`);
}

export type ChannelCreators = TeamRow['who_may_create_channels'];

const channelRoles: Record<ChannelCreators, ReadonlyArray<UsersTable['role']>> = {
  everyone: ['admin', 'user', 'guest'],
  members: ['admin', 'user'],
  admins: ['admin'],
};

const whoMayCreate: Record<ChannelCreators, string> = {
  everyone: 'everyone in it',
  members: 'its members and admins, not guests',
  admins: 'its admins only',
};

/** PermissionDenied unless the team's `who_may_create_channels` lets this person create channels (bots are refused elsewhere). */
export function requireMayCreateChannels(person: Pick<UsersTable, 'role' | 'bot_app_id'>, creators: ChannelCreators): void {
  if (person.bot_app_id !== null || channelRoles[creators].includes(person.role)) return;
  throw new ApiError('PermissionDenied', `In this team ${whoMayCreate[creators]} may create channels. A team admin can change who may.`);
}
