import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChannelId } from '../ids.js';
import { Email, maxPasswordLength, maxPersonNameLength, minPasswordLength } from '../personFields.js';
import { closedObject, IdList, oneOf } from '../params.js';

/** The roles an invitation gives: a member, or a guest who sees only the channels the invitation names. */
export const invitedRoles = ['user', 'guest'] as const;
/** `paused`: not expired, used up or revoked, but its maker may no longer invite (deactivated, or the team's whoMayInvite changed): it answers 410 until they may again. */
export const invitationStates = ['active', 'paused', 'expired', 'usedUp', 'revoked'] as const;

/** An invitation's token is its link's last part: 43 base64url characters after `inv_`. */
const inviteToken = Type.String({ minLength: 1, maxLength: 128, description: 'the token of the invite link (the part after /invite/)' });

export const Invitation = closedObject({
  id: Type.String({ description: 'names the invitation in invitations.revoke' }),
  email: Type.Union([Email, Type.Null()], { description: 'the address invited; null for an invite link' }),
  role: oneOf(invitedRoles),
  channelIds: Type.Array(Type.String(), { description: 'the channels a guest joins on signing up' }),
  maxUses: Type.Integer(),
  uses: Type.Integer(),
  expiresAt: Type.Integer({ description: 'milliseconds since the epoch' }),
  createdBy: Type.String({ description: 'the user id of who made it' }),
  createdAt: Type.Integer(),
  state: oneOf(invitationStates),
});
export type Invitation = Static<typeof Invitation>;

export const createInvitation = defineMethod({
  name: 'invitations.create',
  summary:
    'Invites a person by email (mailed when the server has SMTP), or makes an invite link; admins may, and members where the team’s whoMayInvite is members. ' +
    'The answer carries the link unless it was mailed.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    email: Type.Optional(Type.String({ maxLength: 254, description: 'invite this address (one use); without it, an invite link' })),
    role: Type.Optional(oneOf(invitedRoles, 'user (a member, the default) or guest')),
    channelIds: Type.Optional(IdList(ChannelId, { maxItems: 100, description: 'for a guest: the channels they join (at least one); members join none by the invitation' })),
    maxUses: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'how many people may sign up with a link (1 to 1000, default 1; an email invitation is 1)' })),
    expiresInHours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'hours until it expires (1 to 720, default 168: a week)' })),
  }),
  result: closedObject({
    invitation: Invitation,
    url: Type.Union([Type.String(), Type.Null()], { description: 'the invite link to hand over; null when it was mailed to the address' }),
    mailed: Type.Boolean(),
  }),
  errors: ['PermissionDenied', 'UnknownChannel'],
});

export const listInvitations = defineMethod({
  name: 'invitations.list',
  summary: 'The team’s invitations, the newest first: an admin sees all of them, a member those they made.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ invitations: Type.Array(Invitation) }),
  errors: ['PermissionDenied'],
});

export const revokeInvitation = defineMethod({
  name: 'invitations.revoke',
  summary: 'Revokes an invitation so that nobody can sign up with it any more: an admin any of the team’s, a member their own.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ invitationId: Type.String({ maxLength: 64, description: 'an id from invitations.list' }) }),
  result: closedObject({ invitation: Invitation }),
  errors: ['PermissionDenied'],
});

export const getInvitation = defineMethod({
  name: 'invitations.getInfo',
  summary: 'What the invite page shows before signing up: the team, who invited, the role and, for an email invitation, the address. Anyone holding the link may ask.',
  callers: ['anyone'],
  rateClass: 'channel',
  params: closedObject({ inviteToken }),
  result: closedObject({
    team: closedObject({ id: Type.String(), name: Type.String() }),
    invitedBy: Type.String({ description: 'the display name of who made the invitation' }),
    role: oneOf(invitedRoles),
    email: Type.Union([Type.String(), Type.Null()], { description: 'the invited address; null for an invite link' }),
  }),
  errors: ['InvitationUnusable'],
});

export const acceptInvitation = defineMethod({
  name: 'invitations.accept',
  summary:
    'Signs a new person up with an invitation: makes their account in the invitation’s team (a guest joins its channels) and uses the invitation once. ' +
    'The web client then signs in with the same email and password.',
  callers: ['anyone'],
  rateClass: 'channel',
  params: closedObject({
    inviteToken,
    email: Type.Optional(Type.String({ maxLength: 254, description: 'for an invite link: the new person’s address; an email invitation has its own' })),
    firstName: Type.String({ maxLength: maxPersonNameLength }),
    lastName: Type.String({ maxLength: maxPersonNameLength }),
    password: Type.String({ maxLength: maxPasswordLength, description: `at least ${minPasswordLength} characters, and not one of the commonest leaked passwords` }),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'an IANA time zone such as Europe/Paris (what the browser reports), or a UTC offset such as +01:00' })),
  }),
  result: closedObject({
    userId: Type.String(),
    team: closedObject({ id: Type.String(), name: Type.String() }),
    email: Type.String({ description: 'the address to sign in with' }),
    emailVerified: Type.Boolean({ description: 'false: a verification mail was sent; until it is followed the person may not invite others' }),
  }),
  errors: ['InvitationUnusable'],
});
