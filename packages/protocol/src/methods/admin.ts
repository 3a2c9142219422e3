/**
 * The admin console's methods (issue 25): a team admin manages the team's people and channels. Every
 * one is for a team admin's session only (anyone else: PermissionDenied), and every change is recorded
 * in the audit log.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChannelId, UserId } from '../ids.js';
import { Channel, User } from '../models.js';
import { closedObject, NonEmptyString, oneOf } from '../params.js';
import { personRoles } from '../personFields.js';


/** A person as the console lists them: the account, whether it is deactivated, and when it was last used. */
export const AdminPerson = closedObject({
  user: User,
  deactivatedAt: Type.Union([Type.Integer(), Type.Null()], { description: 'when a team admin (or the CLI) deactivated the account; null while active' }),
  lastActiveAt: Type.Union([Type.Integer(), Type.Null()], { description: 'when one of the person’s sessions was last used (to the minute); null if never' }),
  createdAt: Type.Integer(),
});
export type AdminPerson = Static<typeof AdminPerson>;

/** A channel as the console lists it: every channel of the team, private and archived ones too. */
export const AdminChannel = closedObject({
  channel: Channel,
  isMember: Type.Boolean({ description: 'the admin is a member of it' }),
  createdAt: Type.Integer(),
});
export type AdminChannel = Static<typeof AdminChannel>;

/** An app of the team as the console lists it: who made it, who installed it and when, and whether the team disabled it. */
export const AdminApp = closedObject({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  icon: Type.Optional(Type.String()),
  disabledByTeam: Type.Boolean({ description: 'a team admin disabled it for everyone (apps.disableForTeam)' }),
  createdAt: Type.Integer(),
  developer: closedObject({ id: UserId, firstName: Type.String(), lastName: Type.String() }),
  installs: Type.Array(
    closedObject({
      userId: UserId,
      firstName: Type.String(),
      lastName: Type.String(),
      installedAt: Type.Integer({ description: 'when the person installed it' }),
      disabledByUser: Type.Boolean({ description: 'the person disabled it for themselves (apps.disable)' }),
    }),
    { description: 'every install, the earliest first' },
  ),
});
export type AdminApp = Static<typeof AdminApp>;

const admins = { callers: ['session'], errors: ['PermissionDenied', 'UnknownUser'] } as const;
const userId = UserId;

export const listPeople = defineMethod({
  name: 'admin.listPeople',
  summary: 'A team admin lists the team’s people (no bots), active and deactivated, with their role and last activity.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ people: Type.Array(AdminPerson) }),
  errors: ['PermissionDenied'],
});

export const setRole = defineMethod({
  name: 'admin.setRole',
  summary: 'A team admin makes a person an admin, a member (user) or a guest; the team’s last active admin cannot stop being one.',
  ...admins,
  rateClass: 'channel',
  params: closedObject({ userId, role: oneOf(personRoles, 'admin, user (a member) or guest') }),
  result: closedObject({ person: AdminPerson }),
});

export const deactivatePerson = defineMethod({
  name: 'admin.deactivatePerson',
  summary:
    'A team admin deactivates a person: their sessions and tokens stop working and their streams close at once; their messages stay. ' +
    'An admin cannot deactivate themselves or the last active admin.',
  ...admins,
  rateClass: 'channel',
  params: closedObject({ userId }),
  result: closedObject({ person: AdminPerson }),
});

export const reactivatePerson = defineMethod({
  name: 'admin.reactivatePerson',
  summary: 'A team admin reactivates a deactivated person, who signs in again (their old sessions stay ended).',
  ...admins,
  rateClass: 'channel',
  params: closedObject({ userId }),
  result: closedObject({ person: AdminPerson }),
});

export const resetPassword = defineMethod({
  name: 'admin.resetPassword',
  summary:
    'A team admin starts a password reset for a person: a single-use link valid one hour to hand over, or with `email: true` ' +
    '(when the server sends mail) the link mailed to the person.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({ userId, email: Type.Optional(Type.Boolean({ description: 'mail the link to the person instead of answering it' })) }),
  result: closedObject({
    link: Type.Optional(Type.String({ description: 'the reset link to hand over (absent when mailed)' })),
    mailed: Type.Boolean(),
    expiresAt: Type.Integer(),
  }),
  errors: ['PermissionDenied', 'UnknownUser', 'MailNotConfigured'],
});

export const listChannels = defineMethod({
  name: 'admin.listChannels',
  summary: 'A team admin lists every channel of the team, private and archived ones too, by name.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ channels: Type.Array(AdminChannel) }),
  errors: ['PermissionDenied'],
});

export const listApps = defineMethod({
  name: 'admin.listApps',
  summary: 'A team admin lists every app of the team, by name: who made it, who installed it and when, and whether the team disabled it.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ apps: Type.Array(AdminApp) }),
  errors: ['PermissionDenied'],
});

/** What every console change of a channel shares: a team admin's session, any channel of the team, the channel as it now is. */
const channelChange = {
  callers: ['session'],
  rateClass: 'channel',
  result: closedObject({ channel: Channel }),
  errors: ['PermissionDenied', 'UnknownChannel'],
} as const;
const channelId = closedObject({ channelId: ChannelId });

export const archiveChannel = defineMethod({
  name: 'channels.archive',
  summary: 'A team admin archives a channel: it becomes read-only (sends, and edits, deletions, reactions and pins of its messages, are refused with ChannelArchived), leaves the sidebar, and stays readable and searchable.',
  ...channelChange,
  params: channelId,
});

export const unarchiveChannel = defineMethod({
  name: 'channels.unarchive',
  summary: 'A team admin unarchives a channel: its members may send to it again.',
  ...channelChange,
  params: channelId,
});

export const renameChannel = defineMethod({
  name: 'channels.rename',
  summary: 'A team admin renames a channel, or a moderator of the channel renames it while it is not archived (a visible name: not empty or invisible, no bidi overrides).',
  ...channelChange,
  params: closedObject({ channelId: ChannelId, name: NonEmptyString(255, 'the new name') }),
});

export const convertToPrivate = defineMethod({
  name: 'channels.convertToPrivate',
  summary: 'A team admin makes a public channel private: only its members see it from then on (a private channel stays as it is).',
  ...channelChange,
  params: channelId,
});
