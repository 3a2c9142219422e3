import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { closedObject } from '../params.js';

/** How long a personal token may be made to last, in days; none at all (no expiry) when left out. */
export const personalTokenLifetimes = [30, 90, 365] as const;
export const maxPersonalTokenNameLength = 100;
/** How many live (unrevoked, unexpired) personal tokens a person keeps at once. */
export const maxLivePersonalTokens = 50;

export const PersonalToken = closedObject({
  id: Type.String({ description: 'names the token in personalTokens.revoke; not the token, and no way back to it' }),
  name: Type.String({ description: 'what the person called it, such as "backup script"' }),
  createdAt: Type.Integer({ description: 'milliseconds since the epoch' }),
  expiresAt: Type.Union([Type.Integer(), Type.Null()], { description: 'when it stops working, milliseconds since the epoch; null: never' }),
  lastUsedAt: Type.Union([Type.Integer(), Type.Null()], { description: 'when it was last used, to the minute; null: never used' }),
  expired: Type.Boolean({ description: 'whether it has expired (it is refused)' }),
});
export type PersonalToken = Static<typeof PersonalToken>;

export const create = defineMethod({
  name: 'personalTokens.create',
  summary:
    'Makes a personal API token for the person’s scripts: it acts as the person on the methods a person may call (except managing tokens, sessions and ' +
    'the password), sent as Authorization: Bearer. The token is in this answer only; it is stored hashed.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({
    name: Type.String({ maxLength: maxPersonalTokenNameLength, description: `what it is for, 1 to ${maxPersonalTokenNameLength} characters` }),
    expiresInDays: Type.Optional(
      Type.Union(
        personalTokenLifetimes.map((days) => Type.Literal(days)),
        { description: `${personalTokenLifetimes.join(', ')}: days until it stops working; left out, it never expires` },
      ),
    ),
  }),
  result: closedObject({ token: Type.String({ description: 'the token itself, shown this once' }), personalToken: PersonalToken }),
});

export const list = defineMethod({
  name: 'personalTokens.list',
  summary: 'The person’s personal tokens not revoked, the newest first (expired ones marked); never the tokens themselves.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'read',
  result: closedObject({ personalTokens: Type.Array(PersonalToken) }),
});

export const revoke = defineMethod({
  name: 'personalTokens.revoke',
  summary: 'Revokes one of the person’s personal tokens: it is refused from then on, and the streams opened with it close at once.',
  callers: ['session'],
  sessionOnly: true,
  rateClass: 'channel',
  params: closedObject({ tokenId: Type.String({ maxLength: 64, description: 'a token’s id from personalTokens.list' }) }),
  result: closedObject({}),
});
