import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { UserId } from '../ids.js';
import { PublicProfile, User } from '../models.js';
import { timeZoneParamDescription } from '../personFields.js';
import { Clearable, closedObject } from '../params.js';

/** A person as the client shows them in its lists, with `isBot` on bots. */
export const Contact = Type.Object({ ...PublicProfile.properties, isBot: Type.Optional(Type.Literal(true)) }, { additionalProperties: false });
export type Contact = Static<typeof Contact>;

export const listContacts = defineMethod({
  name: 'roster.listContacts',
  summary:
    'The caller’s active teammates and the bots of apps the caller installed; to a session, every active bot of the team ' +
    '(named to all, installed or not), bots marked isBot.',
  callers: ['token', 'session'],
  rateClass: 'read',
  result: Type.Array(Contact),
});

export const getInfo = defineMethod({
  name: 'users.getInfo',
  summary: 'The token’s own user.',
  callers: ['token', 'session'],
  rateClass: 'read',
  result: User,
});

export const getPublicProfile = defineMethod({
  name: 'users.getPublicProfile',
  summary: 'The public profile of a teammate.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({ userId: UserId }),
  result: PublicProfile,
  errors: ['UnknownUser'],
});

export const updateProfile = defineMethod({
  name: 'users.updateProfile',
  summary: 'The person changes their own first or last name, their time zone (an IANA zone such as Europe/Paris), or their status (text, emoji, expiry).',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    firstName: Type.Optional(Type.String({ description: 'the first name, trimmed, not empty' })),
    lastName: Type.Optional(Type.String({ description: 'the last name, trimmed, not empty' })),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: timeZoneParamDescription })),
    statusText: Type.Optional(Clearable(Type.String({ minLength: 1, maxLength: 100 }), 'the person’s status, up to 100 characters; null or "" clears it (with its emoji and expiry)')),
    statusEmoji: Type.Optional(Clearable(Type.String({ minLength: 1, maxLength: 32 }), 'one emoji shown before the status; null or "" for none')),
    statusExpiresAt: Type.Optional(Type.Integer({ minimum: 0, description: 'when the status is cleared (epoch milliseconds, in the future); 0 or absent: until changed' })),
  }),
  result: closedObject({ user: User }),
});
