import { oneOf } from '../../params.js';
import { appCreatorChoices, Team } from '../clientModels.js';
import { defineRoute } from '../define.js';
import { closedObject, sessionRead } from '../fields.js';

const answer = closedObject({ team: Team });

export const getTeam = defineRoute({
  ...sessionRead,
  name: 'client.getTeam',
  summary: 'The person’s team and its settings.',
  path: '/api/client/team',
  result: answer,
});

export const updateTeam = defineRoute({
  name: 'client.updateTeam',
  summary: 'A team admin changes the team’s settings: who may create apps.',
  verb: 'PATCH',
  path: '/api/client/team',
  callers: ['session'],
  params: closedObject({ appCreators: oneOf(appCreatorChoices, 'members (members and admins), admins, or everyone (guests too)') }),
  result: answer,
  errors: ['PermissionDenied'],
});
