import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChannelId, UserId } from '../ids.js';
import { Channel, ChannelMember, MemberStatuses } from '../models.js';
import { closedObject, HttpUrl, IdList, NonEmptyString } from '../params.js';

const members = IdList(UserId, { maxItems: 1000, description: 'user ids (JSON array or comma-separated)' });
const channelId = ChannelId;

export const create = defineMethod({
  name: 'channels.create',
  summary: 'Create a channel; the caller becomes its moderator.',
  callers: ['token', 'session'],
  rateClass: 'channel',
  params: Type.Object({
    name: NonEmptyString(255, 'the channel name'),
    purpose: Type.Optional(Type.String({ maxLength: 1024 })),
    profileImage: Type.Optional(HttpUrl),
    type: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private')], { description: 'public or private' })),
    members,
  }),
  result: Type.Object({ id: ChannelId, members: MemberStatuses }),
});

/** channels.addMembers and channels.removeMembers: the same parameters, answered per member. */
const memberChange = <const N extends string>(name: N, summary: string) =>
  defineMethod({
    name,
    summary,
    callers: ['token', 'session'],
    rateClass: 'channel',
    params: Type.Object({ channelId, members: IdList(UserId, { minItems: 1, maxItems: 1000, description: 'user ids' }) }),
    result: Type.Object({ members: MemberStatuses }),
    errors: ['UnknownChannel', 'PermissionDenied'],
  });

export const addMembers = memberChange('channels.addMembers', 'Add people to a channel.');
export const removeMembers = memberChange('channels.removeMembers', 'Remove people from a channel (anyone may remove themselves).');

/** What the signed-in person may do to a channel's membership (channels.getInfo answers it to sessions only). */
export const ChannelAbilities = closedObject({
  addMembers: Type.Boolean({ description: 'the person may add others' }),
  removeMembers: Type.Boolean({ description: 'the person may remove others (anyone may remove themselves)' }),
  setPurpose: Type.Boolean({ description: 'the person may change what the channel is about (channels.setPurpose)' }),
  rename: Type.Boolean({ description: 'the person may rename the channel (channels.rename)' }),
});

export const getInfo = defineMethod({
  name: 'channels.getInfo',
  summary: 'Describe a channel.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({ channelId }),
  result: Type.Object({ ...Channel.properties, abilities: Type.Optional(ChannelAbilities) }),
  errors: ['UnknownChannel'],
});

export const list = defineMethod({
  name: 'channels.list',
  summary: 'The channels the caller is a member of.',
  callers: ['token', 'session'],
  rateClass: 'read',
  result: Type.Array(Channel),
});

export const listMembers = defineMethod({
  name: 'channels.listMembers',
  summary: 'The members of a channel.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({ channelId, showPublicProfile: Type.Optional(Type.Boolean()) }),
  result: Type.Array(ChannelMember),
  errors: ['UnknownChannel'],
});

export const listPublic = defineMethod({
  name: 'channels.listPublic',
  summary: 'The public channels of the person’s team, by name, each saying whether the person is a member.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ channels: Type.Array(closedObject({ channel: Channel, isMember: Type.Boolean() })) }),
});

export const join = defineMethod({
  name: 'channels.join',
  summary: 'Join a public channel; joining one the person is already in is no change.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ channelId }),
  result: closedObject({ channel: Channel }),
  errors: ['UnknownChannel', 'PermissionDenied'],
});

export const setPurpose = defineMethod({
  name: 'channels.setPurpose',
  summary:
    'An Aviary extension: say what a channel is about, shown under its name (an empty or absent purpose clears it). Its members may, guests ' +
    'excepted, and a team admin on any channel of the team; not while it is archived.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ channelId, purpose: Type.Optional(Type.String({ maxLength: 1024, description: 'what the channel is about, at most 1,024 characters; empty or left out to clear it' })) }),
  result: closedObject({ channel: Channel }),
  errors: ['UnknownChannel', 'PermissionDenied', 'ChannelArchived'],
});
