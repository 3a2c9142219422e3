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
import { closedObject } from '../fields.js';

const creating = api.channels.create.params.properties;

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

/** The channel in the path: one the person can see. */
const byChannel = { channelId: ChannelId };

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
