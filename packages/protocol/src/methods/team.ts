import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { oneOf, closedObject } from '../params.js';
import { appCreatorChoices, maxMessageEditWindowMinutes, Team } from '../routes/clientModels.js';

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
  summary: 'A team admin changes the team’s settings: who may create apps, how long people may edit and delete their messages. Settings left out stay.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    appCreators: Type.Optional(oneOf(appCreatorChoices, 'members (members and admins), admins, or everyone (guests too)')),
    messageEditWindowMinutes: Type.Optional(
      Type.Integer({ minimum: 0, maximum: maxMessageEditWindowMinutes, description: 'minutes after sending during which people may edit or delete their own messages; 0: no limit' }),
    ),
  }),
  result: answer,
  errors: ['PermissionDenied'],
});
