/**
 * Aviary's own events, extensions beyond the specification's ten (docs/reference/events.md): an app
 * receives them only when it subscribes (docs/reference/event-subscriptions.md). events.ts lists them
 * beside the ten in `AnyEvent` and `eventSchemas`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ChannelId, UserId } from './ids.js';
import { Message, MessageRef } from './models.js';

const closed = { additionalProperties: false } as const;

/*
 * Aviary's own events (extensions beyond the specification's ten): an app receives them only when it
 * subscribes (docs/reference/event-subscriptions.md). Each goes to the apps a message concerns: the app
 * it was sent through, and the app whose bot is in its direct chat; never to the app that made the change.
 */

export const ChatMessageUpdatedEvent = Type.Object(
  {
    name: Type.Literal('chat.messageUpdated'),
    /** Who edited it (its sender), or who deleted a file it carried (files.delete). */
    userId: UserId,
    message: Message,
  },
  { ...closed, description: 'a message the app sent or its bot reads was edited, or a file it carried deleted (Aviary extension)' },
);
export type ChatMessageUpdatedEvent = Static<typeof ChatMessageUpdatedEvent>;

export const ChatMessageDeletedEvent = Type.Object(
  {
    name: Type.Literal('chat.messageDeleted'),
    /** Who deleted it: its sender, or a team admin. */
    userId: UserId,
    message: MessageRef,
  },
  { ...closed, description: 'a message the app sent or its bot reads was deleted (Aviary extension)' },
);
export type ChatMessageDeletedEvent = Static<typeof ChatMessageDeletedEvent>;

const reactionEventFields = {
  /** Who reacted. */
  userId: UserId,
  message: MessageRef,
  emoji: Type.String({ description: 'one native Unicode emoji' }),
};

export const ChatReactionAddedEvent = Type.Object(
  { name: Type.Literal('chat.reactionAdded'), ...reactionEventFields },
  { ...closed, description: 'someone reacted to a message the app sent or its bot reads (Aviary extension)' },
);
export type ChatReactionAddedEvent = Static<typeof ChatReactionAddedEvent>;

export const ChatReactionRemovedEvent = Type.Object(
  { name: Type.Literal('chat.reactionRemoved'), ...reactionEventFields },
  { ...closed, description: 'someone took back their reaction to a message the app sent or its bot reads (Aviary extension)' },
);
export type ChatReactionRemovedEvent = Static<typeof ChatReactionRemovedEvent>;

/*
 * Aviary's own events about a channel: they go only to the apps that see into it, those a member of it
 * installed (after the change; for a member who left, before it, so the app of the member leaving hears of
 * it); never to the app whose token made the change, nor one a team admin disabled; and, as every
 * extension, only to an app that subscribes.
 */

/** The channel an event is about. */
const ChannelEventRef = Type.Object(
  {
    id: ChannelId,
    name: Type.String({ description: 'the channel’s name' }),
    type: Type.Union([Type.Literal('private'), Type.Literal('public')], { description: 'private (by invitation) or public (anyone in the team may join)' }),
  },
  { ...closed, description: 'the channel: its id, name and type' },
);


export const ChannelMemberJoinedEvent = Type.Object(
  {
    name: Type.Literal('channel.memberJoined'),
    /** The member who joined, or was added. */
    userId: UserId,
    channel: ChannelEventRef,
    /** Who made the change, when it was someone else than `userId` (a member adding or removing them). */
    byUserId: Type.Optional(UserId),
  },
  { ...closed, description: 'a member joined a channel one of whose members installed the app, or was added to it (Aviary extension)' },
);
export type ChannelMemberJoinedEvent = Static<typeof ChannelMemberJoinedEvent>;

export const ChannelMemberLeftEvent = Type.Object(
  {
    name: Type.Literal('channel.memberLeft'),
    /** The member who left, or was removed. */
    userId: UserId,
    channel: ChannelEventRef,
    /** Who made the change, when it was someone else than `userId` (a member adding or removing them). */
    byUserId: Type.Optional(UserId),
  },
  { ...closed, description: 'a member left a channel one of whose members (the one leaving included) installed the app, or was removed from it (Aviary extension)' },
);
export type ChannelMemberLeftEvent = Static<typeof ChannelMemberLeftEvent>;

export const ChannelCreatedEvent = Type.Object(
  {
    name: Type.Literal('channel.created'),
    /** Who created it. */
    userId: UserId,
    channel: ChannelEventRef,
    memberCount: Type.Integer({ minimum: 1, description: 'how many members it has, its creator included' }),
  },
  { ...closed, description: 'a channel was created, one of whose members installed the app (Aviary extension)' },
);
export type ChannelCreatedEvent = Static<typeof ChannelCreatedEvent>;
