import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { oneOf, closedObject } from '../params.js';

/** Who in a team may create apps: `members` (members and admins, the default), `admins`, or `everyone` (guests too). */
export const appCreatorChoices = ['members', 'admins', 'everyone'] as const;
export type AppCreators = (typeof appCreatorChoices)[number];

export const Team = Type.Object(
  { id: Type.String(), name: Type.String(), appCreators: oneOf(appCreatorChoices) },
  { additionalProperties: false },
);
export type Team = Static<typeof Team>;

const answer = closedObject({ team: Team });

export const getInfo = defineMethod({
  name: 'team.getInfo',
  summary: 'The person’s team and its settings.',
  callers: ['session'],
  rateClass: 'read',
  result: answer,
});

export const updateSettings = defineMethod({
  name: 'team.updateSettings',
  summary: 'A team admin changes the team’s settings: who may create apps.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ appCreators: oneOf(appCreatorChoices, 'members (members and admins), admins, or everyone (guests too)') }),
  result: answer,
  errors: ['PermissionDenied'],
});
