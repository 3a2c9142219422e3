import { defineMethod } from '../define.js';
import { oneOf, closedObject } from '../params.js';
import { appCreatorChoices, Team } from '../routes/clientModels.js';

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
