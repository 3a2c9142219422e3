import type { InvitationsTable, TeamsTable, UsersTable } from '../../store/schema.js';
import { ApiError } from '../../errors.js';
import { hasModeratorPowers, type ChannelAccess } from './channels.js';

/**
 * Who may invite (docs/reference/methods.md, invitations.*): a team admin always; a member when the
 * team's whoMayInvite is `members`; never a guest or a bot. A person whose email is not verified yet
 * (signed up by link on a server with SMTP) may not invite either: an unverified address is the cheapest
 * way to bring in accounts nobody can trace.
 */
export function authorizeInvite(actor: UsersTable, team: Pick<TeamsTable, 'who_may_invite'>): void {
  const why = whyMayNotInvite(actor, team);
  if (why !== undefined) throw new ApiError('PermissionDenied', why);
}

/** Why `actor` may not invite people now, or undefined when they may (authorizeInvite's rules). */
export function whyMayNotInvite(actor: UsersTable, team: Pick<TeamsTable, 'who_may_invite'>): string | undefined {
  if (actor.bot_app_id !== null || actor.role === 'guest') return 'Guests and bots may not invite people.';
  if (actor.role !== 'admin' && team.who_may_invite !== 'members') return 'In this team only admins may invite people; a team admin can let members invite too (whoMayInvite).';
  if (actor.email_unverified === 1) return 'Verify your email first: follow the link in the mail sent when you signed up.';
  if (actor.deactivated_at !== null) return 'A deactivated account may not invite people.';
  return undefined;
}

/**
 * Whether an invitation made by `inviter` may add people of `role` to a channel they see: for a guest,
 * with a moderator's powers (as channels.addMembers asks); for a member, a public channel too.
 */
export const mayInviteInto = (inviter: UsersTable, access: ChannelAccess, role: 'user' | 'guest'): boolean =>
  hasModeratorPowers(inviter, access) || (role === 'user' && access.channel.type === 'public');

/** Whether `actor` may see and revoke this invitation: an admin any of the team's, anyone else their own. */
export const mayManageInvitation = (actor: UsersTable, invitation: InvitationsTable): boolean =>
  invitation.team_id === actor.team_id && (actor.role === 'admin' || invitation.created_by === actor.id);

export type InvitationState = 'active' | 'expired' | 'usedUp' | 'revoked';

export function invitationState(invitation: InvitationsTable, now: number): InvitationState {
  if (invitation.revoked_at !== null) return 'revoked';
  if (invitation.uses >= invitation.max_uses) return 'usedUp';
  if (invitation.expires_at <= now) return 'expired';
  return 'active';
}

const refusals: Record<Exclude<InvitationState, 'active'>, string> = {
  revoked: 'This invitation was revoked; ask whoever invited you for a new one.',
  usedUp: 'This invitation has been used as many times as it allows; ask whoever invited you for a new one.',
  expired: 'This invitation has expired; ask whoever invited you for a new one.',
};

/** Throws InvitationUnusable, saying why, unless the invitation (undefined: no such token) can be used now. */
export function requireUsable(invitation: InvitationsTable | undefined, now: number): InvitationsTable {
  if (!invitation) throw new ApiError('InvitationUnusable', 'There is no such invitation; check that the whole link was copied.', { parameter: 'inviteToken' });
  const state = invitationState(invitation, now);
  if (state !== 'active') throw new ApiError('InvitationUnusable', refusals[state], { parameter: 'inviteToken' });
  return invitation;
}
