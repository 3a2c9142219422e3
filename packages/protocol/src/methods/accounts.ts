import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { maxPasswordLength, minPasswordLength } from '../personFields.js';
import { closedObject } from '../params.js';

export const changePassword = defineMethod({
  name: 'users.changePassword',
  summary: 'The person changes their password, giving the current one; every other session of theirs ends at once, this one stays.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({
    currentPassword: Type.String({ maxLength: maxPasswordLength, description: 'the password in use now; a wrong one counts as a failed sign-in' }),
    newPassword: Type.String({
      maxLength: maxPasswordLength,
      description: `at least ${minPasswordLength} characters, and not one of the commonest leaked passwords`,
    }),
  }),
  result: closedObject({ endedSessions: Type.Integer({ description: 'how many other sessions were signed out' }) }),
});

export const Session = closedObject({
  id: Type.String({ description: 'names the session in sessions.revoke; not its token, and no way back to it' }),
  device: Type.String({ description: 'the browser and system it signed in from, read from its User-Agent (such as "Firefox on Linux")' }),
  address: Type.Union([Type.String(), Type.Null()], { description: 'the client address it signed in from; null for sessions older than this record' }),
  createdAt: Type.Integer({ description: 'when it signed in, milliseconds since the epoch' }),
  lastSeenAt: Type.Union([Type.Integer(), Type.Null()], { description: 'when it was last used, to the minute, milliseconds since the epoch' }),
  current: Type.Boolean({ description: 'whether this is the session making the call' }),
});

export const listSessions = defineMethod({
  name: 'sessions.list',
  summary: 'The person’s signed-in sessions, the newest first, the calling one marked.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'read',
  result: closedObject({ sessions: Type.Array(Session) }),
});

export const revokeSessions = defineMethod({
  name: 'sessions.revoke',
  summary: 'Signs out one of the person’s sessions (sessionId), or all of them (all: true), the calling one kept with exceptCurrent: true; their streams close at once.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({
    sessionId: Type.Optional(Type.String({ maxLength: 64, description: 'a session’s id from sessions.list' })),
    all: Type.Optional(Type.Boolean({ description: 'true signs out every session of the person' })),
    exceptCurrent: Type.Optional(Type.Boolean({ description: 'with all: keep the calling session' })),
  }),
  result: closedObject({ revoked: Type.Integer({ description: 'how many sessions were signed out' }) }),
});

export const deactivateAccount = defineMethod({
  name: 'users.deactivateAccount',
  summary:
    'The person deactivates their own account, giving their password: every session and token of theirs ends and their streams close at once; ' +
    'their messages stay. The team’s last admin cannot.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({
    password: Type.String({ maxLength: maxPasswordLength, description: 'the password in use now; a wrong one counts as a failed sign-in' }),
  }),
  result: closedObject({}),
  errors: ['PermissionDenied'],
});
