import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { oneOf, closedObject, NonEmptyString } from '../params.js';

/** Who in a team may create apps: `members` (members and admins, the default), `admins`, or `everyone` (guests too). */
export const appCreatorChoices = ['members', 'admins', 'everyone'] as const;
export type AppCreators = (typeof appCreatorChoices)[number];

/** Who may invite people to the team: its admins, or its members and admins (never guests). */
export const inviterChoices = ['admins', 'members'] as const;
export type WhoMayInvite = (typeof inviterChoices)[number];

/** Who in a team may create channels: `everyone` (guests too, the default), `members` (members and admins) or `admins`. */
export const channelCreatorChoices = ['everyone', 'members', 'admins'] as const;
export type ChannelCreators = (typeof channelCreatorChoices)[number];

/** The longest edit window a team may set: a year. */
export const maxMessageEditWindowMinutes = 525_600;

export const Team = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    appCreators: oneOf(appCreatorChoices),
    whoMayInvite: oneOf(inviterChoices),
    whoMayCreateChannels: oneOf(channelCreatorChoices),
    messageEditWindowMinutes: Type.Integer({ minimum: 0, description: 'minutes after sending during which people may edit or delete their own messages; 0: no limit (team admins never are)' }),
    broadcastMentionLimit: Type.Integer({ minimum: 0, description: 'in channels of more members than this, only team admins may use @channel and @here; 0: no limit (team.updateMentionSettings)' }),
    icon: Type.Optional(Type.String({ description: 'the team’s icon, a square picture (team.setIcon): /pictures/<id>, absolute when the server knows its public URL; absent: none' })),
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
  summary:
    'A team admin changes the team’s settings: its name, who may create apps, who may create channels, who may invite people, ' +
    'how long people may edit and delete their messages. Settings left out stay.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({
    name: Type.Optional(NonEmptyString(100, 'the team’s name, trimmed, not empty or invisible')),
    whoMayCreateChannels: Type.Optional(oneOf(channelCreatorChoices, 'everyone (guests too), members (members and admins) or admins')),
    appCreators: Type.Optional(oneOf(appCreatorChoices, 'members (members and admins), admins, or everyone (guests too)')),
    messageEditWindowMinutes: Type.Optional(
      Type.Integer({ minimum: 0, maximum: maxMessageEditWindowMinutes, description: 'minutes after sending during which people may edit or delete their own messages; 0: no limit' }),
    ),
    whoMayInvite: Type.Optional(oneOf(inviterChoices, 'admins, or members (members and admins; never guests)')),
  }),
  result: answer,
  errors: ['PermissionDenied'],
});
