/** Signing a person in and out: the session the client API and the methods need. */
import { Type } from '@sinclair/typebox';
import { User } from '../models.js';
import { maxEmailLength, maxPasswordLength } from '../personFields.js';
import { closedObject } from '../params.js';
import { StreamCursor } from '../stream.js';
import { defineRoute } from './define.js';

/** A read with no parameters and no errors of its own. */
const plainRead = { verb: 'GET', params: Type.Object({}), errors: [] } as const;

/**
 * The session answers carry `streamCursor`, where the team's stream stood when the answer was made: a
 * client that opens the stream with it as `?cursor=` misses nothing of what it loads after the answer.
 */
const SessionTeam = closedObject({ id: Type.String(), name: Type.String(), icon: Type.Optional(Type.String({ description: 'the team’s icon (team.setIcon), absent when it has none' })) });

export const signIn = defineRoute({
  name: 'session.signIn',
  summary:
    'Sign a person in: answers the session token and sets the session cookie. A password that opens accounts in ' +
    'several teams answers TeamRequired with them: sign in again naming one.',
  verb: 'POST',
  path: '/api/session',
  params: Type.Object({
    email: Type.String({ minLength: 1, maxLength: maxEmailLength, description: 'compared without regard to case or surrounding spaces' }),
    password: Type.String({ minLength: 1, maxLength: maxPasswordLength }),
    teamId: Type.Optional(Type.String({ pattern: '^t:[a-z2-7]{16}$', description: 'a team id (t: followed by 16 base32 characters), as given by TeamRequired' })),
  }),
  result: closedObject({ sessionToken: Type.String(), user: User, team: SessionTeam, streamCursor: StreamCursor }),
  errors: ['InvalidCredentials', 'TeamRequired', 'TooManyRequests', 'PasswordSignInOff'],
});

/**
 * Asked by every page that opens, signed in or not: without a live session the answer is `{user: null}`,
 * not a refusal, so that a fresh page's first request is no error (a browser logs every 4xx).
 */
export const getSession = defineRoute({
  ...plainRead,
  name: 'session.getSession',
  summary: 'Who the session belongs to, and their team: the web client asks on load, as it cannot read the cookie. Without a live session: {user: null}.',
  path: '/api/session',
  result: Type.Union([closedObject({ user: User, team: SessionTeam, streamCursor: StreamCursor }), closedObject({ user: Type.Null() })]),
});

export const signOut = defineRoute({
  name: 'session.signOut',
  summary: 'Sign the session out, when there is one, and clear the cookie.',
  verb: 'DELETE',
  path: '/api/session',
  params: Type.Object({}),
  result: closedObject({}),
  errors: [],
});

/**
 * What the sign-in page offers, asked before anyone signs in. It names no team: a server's teams are not
 * told to strangers. With one team offering single sign-on the page shows a button (GET /api/sso/start);
 * with several it asks for the work email first (GET /api/sso/start?email=), which finds the team.
 */
export const getSignInMethods = defineRoute({
  ...plainRead,
  name: 'session.getSignInMethods',
  summary:
    'How people sign in here: password (false when every team switched it off), and single sign-on: off, a button (one team offers it) ' +
    'or email (several do: the page asks for the work email, which picks the team).',
  path: '/api/session/methods',
  result: closedObject({
    password: Type.Boolean(),
    sso: Type.Union([Type.Literal('off'), Type.Literal('button'), Type.Literal('email')]),
  }),
});
