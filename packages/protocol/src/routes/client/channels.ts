/**
 * Channels as a person's client manages them: the same rules as the /v1 channels.* methods (the server's
 * core decides both), in the client API's shape.
 */
import { Type } from '@sinclair/typebox';
import { ChannelId, UserId } from '../../ids.js';
import { api } from '../../methods/index.js';
import { Channel, ChannelMember, MemberStatuses } from '../../models.js';
import { IdList } from '../../params.js';
import { defineRoute } from '../define.js';
import { closedObject, sessionRead } from '../fields.js';

const creating = api.channels.create.params.properties;
const memberIds = IdList(UserId, { minItems: 1, maxItems: 1000, description: 'user ids (JSON array)' });

export const createChannel = defineRoute({
  name: 'client.createChannel',
  summary: 'Create a channel (private unless type is public); the person becomes its moderator.',
  verb: 'POST',
  path: '/api/client/channels',
  callers: ['session'],
  params: closedObject({
    name: creating.name,
    purpose: creating.purpose,
    type: creating.type,
    members: Type.Optional(IdList(UserId, { maxItems: 1000, description: 'user ids to add beside the creator' })),
  }),
  result: closedObject({ channel: Channel, members: MemberStatuses }),
  errors: ['PermissionDenied'],
});

export const browseChannels = defineRoute({
  ...sessionRead,
  name: 'client.browseChannels',
  summary: 'The public channels of the person’s team, by name, each saying whether the person is a member.',
  path: '/api/client/channels/public',
  result: closedObject({ channels: Type.Array(closedObject({ channel: Channel, isMember: Type.Boolean() })) }),
});

/** The channel in the path: one the person can see. */
const byChannel = { channelId: ChannelId };

export const joinChannel = defineRoute({
  name: 'client.joinChannel',
  summary: 'Join a public channel; joining one the person is already in is no change.',
  verb: 'POST',
  path: '/api/client/channels/:channelId/join',
  callers: ['session'],
  params: closedObject(byChannel),
  result: closedObject({ channel: Channel }),
  errors: ['UnknownChannel', 'PermissionDenied'],
});

export const listChannelMembers = defineRoute({
  name: 'client.listChannelMembers',
  summary: 'A channel’s members with their public profiles, moderators first, and what the person may do to the membership.',
  verb: 'GET',
  path: '/api/client/channels/:channelId/members',
  callers: ['session'],
  params: closedObject(byChannel),
  result: closedObject({
    channel: Channel,
    members: Type.Array(ChannelMember),
    canAddMembers: Type.Boolean({ description: 'the person may add others' }),
    canRemoveMembers: Type.Boolean({ description: 'the person may remove others (anyone may remove themselves)' }),
  }),
  errors: ['UnknownChannel'],
});

/** Adding and removing members: the same body and answer, at `members/add` and `members/remove`. */
const memberChange = (change: 'add' | 'remove') =>
  ({
    verb: 'POST',
    callers: ['session'],
    path: `/api/client/channels/:channelId/members/${change}`,
    params: closedObject({ ...byChannel, members: memberIds }),
    result: closedObject({ members: MemberStatuses }),
    errors: ['UnknownChannel', 'PermissionDenied'],
  }) as const;

export const addChannelMembers = defineRoute({
  ...memberChange('add'),
  name: 'client.addChannelMembers',
  summary: 'Add people to a channel, as the channel’s rules allow; each gets a status.',
});

export const removeChannelMembers = defineRoute({
  ...memberChange('remove'),
  name: 'client.removeChannelMembers',
  summary: 'Remove people from a channel (anyone may remove themselves); each gets a status.',
});
