import { defineMethod } from '../define.js';
import { oneOf, closedObject } from '../params.js';
import { Type } from '@sinclair/typebox';
import { appCreatorChoices, inviterChoices, Team } from '../routes/clientModels.js';

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
  summary: 'A team admin changes the team’s settings: who may create apps, who may invite people; a setting left out stays.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    appCreators: Type.Optional(oneOf(appCreatorChoices, 'members (members and admins), admins, or everyone (guests too)')),
    whoMayInvite: Type.Optional(oneOf(inviterChoices, 'admins, or members (members and admins; never guests)')),
  }),
  result: answer,
  errors: ['PermissionDenied'],
});
