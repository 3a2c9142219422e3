import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { oneOf, closedObject } from '../params.js';

/** Who in a team may create apps: `members` (members and admins, the default), `admins`, or `everyone` (guests too). */
export const appCreatorChoices = ['members', 'admins', 'everyone'] as const;
export type AppCreators = (typeof appCreatorChoices)[number];

/** Who may invite people to the team: its admins, or its members and admins (never guests). */
export const inviterChoices = ['admins', 'members'] as const;
export type WhoMayInvite = (typeof inviterChoices)[number];

/** The longest edit window a team may set: a year. */
export const maxMessageEditWindowMinutes = 525_600;

export const Team = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    appCreators: oneOf(appCreatorChoices),
    whoMayInvite: oneOf(inviterChoices),
    messageEditWindowMinutes: Type.Integer({ minimum: 0, description: 'minutes after sending during which people may edit or delete their own messages; 0: no limit (team admins never are)' }),
    broadcastMentionLimit: Type.Integer({ minimum: 0, description: 'in channels of more members than this, only team admins may use @channel and @here; 0: no limit (team.updateMentionSettings)' }),
  },
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
  summary: 'A team admin changes the team’s settings: who may create apps, who may invite people, how long people may edit and delete their messages. Settings left out stay.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    appCreators: Type.Optional(oneOf(appCreatorChoices, 'members (members and admins), admins, or everyone (guests too)')),
    messageEditWindowMinutes: Type.Optional(
      Type.Integer({ minimum: 0, maximum: maxMessageEditWindowMinutes, description: 'minutes after sending during which people may edit or delete their own messages; 0: no limit' }),
    ),
    whoMayInvite: Type.Optional(oneOf(inviterChoices, 'admins, or members (members and admins; never guests)')),
  }),
  result: answer,
  errors: ['PermissionDenied'],
});
