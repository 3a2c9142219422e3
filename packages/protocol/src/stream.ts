/**
 * The real-time stream a person's client opens at `GET /api/stream` (docs/reference/stream.md): the
 * frames the server sends, their close codes, and what a client may pass when it connects. Every data
 * frame carries `cursor`, the position to resume from; control frames carry none, except `hello`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ChatId, MessageUid, UserId } from './ids.js';
import { Channel, Message, MessageRef, PublicProfile } from './models.js';
import { oneOf } from './params.js';
import { personRoles } from './personFields.js';
import { ThreadSummary } from './threads.js';
import { NotificationSettings } from './notifications.js';
import { Team } from './methods/team.js';

/** Where the stream is opened: `GET` with `Upgrade: websocket`. */
export const streamPath = '/api/stream';

const closed = { additionalProperties: false } as const;

/** A position in the stream: digits, compared as numbers. A client stores the last one it handled. */
export const streamCursorPattern = /^[0-9]{1,15}$/;
export const StreamCursor = Type.String({ pattern: streamCursorPattern.source, description: 'a stream position; resume after it with ?cursor=' });

const AppId = Type.String({ description: 'an app id' });

/** The switch that was turned: the person's own, or a team admin's for everyone. */
export const appSwitches = ['user', 'team'] as const;

const dataFrame = <T extends string, P extends Parameters<typeof Type.Object>[0]>(type: T, properties: P, description: string) =>
  Type.Object({ type: Type.Literal(type), cursor: StreamCursor, ...properties }, { ...closed, description });

export const MessageCreatedFrame = dataFrame('message.created', { message: Message }, 'a new message in a chat the person can read');
export const MessageUpdatedFrame = dataFrame('message.updated', { message: Message }, 'a message changed (a preview was attached, or its sender edited it): replace it whole');
export const MessageDeletedFrame = dataFrame(
  'message.deleted',
  { message: MessageRef, deletedBy: UserId },
  'a message was deleted (by its sender, the app that sent it, or a team admin): remove it',
);
const reactionFields = { message: MessageRef, emoji: Type.String(), userId: UserId };
export const ReactionAddedFrame = dataFrame('reaction.added', reactionFields, 'someone reacted to a message with an emoji');
export const ReactionRemovedFrame = dataFrame('reaction.removed', reactionFields, 'someone took back their reaction to a message');
const pinFields = { message: MessageRef, userId: UserId };
export const PinAddedFrame = dataFrame('pin.added', { ...pinFields, pinnedAt: Type.Integer() }, 'someone pinned a message to its chat');
export const PinRemovedFrame = dataFrame('pin.removed', pinFields, 'someone unpinned a message (or the message was deleted)');
export const ThreadUpdatedFrame = dataFrame(
  'thread.updated',
  { message: MessageRef, thread: ThreadSummary },
  'a message’s thread changed (a reply was added or deleted): show its new summary under the parent',
);
export const ThreadFollowUpdatedFrame = dataFrame(
  'thread.followUpdated',
  { message: MessageRef, following: Type.Boolean(), readUpTo: Type.Optional(MessageUid) },
  'the person followed, unfollowed or read a thread (on any of their devices)',
);
export const ThreadFollowedReplyFrame = dataFrame(
  'thread.followedReply',
  { message: Message },
  'someone replied in a thread the person follows (the reply, whole; its message.created comes just before): notify as for a mention',
);
export const ChannelCreatedFrame = dataFrame(
  'channel.created',
  { channel: Channel, memberIds: Type.Array(UserId, { description: 'every member, the creator first' }) },
  'a channel the person is a member of was created',
);
export const ChannelMembersAddedFrame = dataFrame(
  'channel.membersAdded',
  { channel: Channel, userIds: Type.Array(UserId, { minItems: 1, description: 'who joined' }) },
  'people joined a channel the person is (now) a member of',
);
export const ChannelMembersRemovedFrame = dataFrame(
  'channel.membersRemoved',
  {
    channel: Channel,
    userIds: Type.Array(UserId, { minItems: 1, description: 'who left or was removed' }),
    /** The member made moderator because the last moderator left. */
    newModerator: Type.Optional(UserId),
  },
  'people left a channel; the people removed get this one frame and nothing more of the channel',
);
export const AppInstalledFrame = dataFrame('app.installed', { appId: AppId }, 'the person installed an app');
export const AppUninstalledFrame = dataFrame('app.uninstalled', { appId: AppId }, 'the person uninstalled an app');
export const AppDisabledFrame = dataFrame('app.disabled', { appId: AppId, by: oneOf(appSwitches) }, 'an app was disabled, by the person or for the whole team');
export const AppEnabledFrame = dataFrame('app.enabled', { appId: AppId, by: oneOf(appSwitches) }, 'the switch named by `by` was turned back on');
export const AppDeletedFrame = dataFrame('app.deleted', { appId: AppId }, 'an app of the team was deleted by its developer');
/** How far a person has read a chat, and what is left: the answer of client.markChatRead and the chat.read frame. */
export const ChatReadState = Type.Object(
  {
    /** What `to` takes: the channel id, or the other person's id. */
    chat: ChatId,
    readUpTo: MessageUid,
    unread: Type.Integer({ minimum: 0, description: 'messages after readUpTo from others, counted up to 1,000' }),
    mentions: Type.Integer({ minimum: 0, description: 'of those, the ones that mention the person' }),
  },
  closed,
);

export const UserUpdatedFrame = dataFrame(
  'user.updated',
  { user: PublicProfile },
  'a person of the team changed their profile: their name as it now is (a change of timezone only says that something changed)',
);

export const ChannelUpdatedFrame = dataFrame(
  'channel.updated',
  { channel: Channel },
  'a team admin renamed, archived, unarchived or made private a channel the person is a member of: replace it whole',
);

export const UserRoleChangedFrame = dataFrame(
  'user.roleChanged',
  { userId: UserId, role: oneOf(personRoles) },
  'a team admin changed a person’s role (admin, user or guest)',
);

export const TeamUpdatedFrame = dataFrame(
  'team.updated',
  { team: Team },
  'a team admin changed the team’s name, icon or settings: the team as it now is, as team.getInfo answers',
);

export const ChatReadFrame = dataFrame('chat.read', ChatReadState.properties, 'the person marked a chat read (on any of their devices)');

export const NotificationsChangedFrame = dataFrame(
  'notifications.changed',
  { settings: NotificationSettings },
  'the person changed their notification settings (a chat’s level, do-not-disturb) on one of their devices: use these',
);

/** Developer-scoped: only the app's developer gets it. */
export const DeliveryChangedFrame = dataFrame(
  'delivery.changed',
  {
    appId: AppId,
    /** The events whose delivery changed (made, attempted, delivered, failed, replayed), at most 100; empty when only the app's delivery was paused or resumed. */
    eventIds: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
    /** When the app's delivery was paused, or null while it runs. */
    deliveryPausedAt: Type.Union([Type.Integer(), Type.Null()]),
  },
  'the delivery log of an app the person develops changed: read it again',
);

export const StreamDataFrame = Type.Union([
  MessageCreatedFrame,
  MessageUpdatedFrame,
  MessageDeletedFrame,
  ReactionAddedFrame,
  ReactionRemovedFrame,
  PinAddedFrame,
  PinRemovedFrame,
  ThreadUpdatedFrame,
  ThreadFollowUpdatedFrame,
  ThreadFollowedReplyFrame,
  ChannelCreatedFrame,
  ChannelMembersAddedFrame,
  ChannelMembersRemovedFrame,
  ChannelUpdatedFrame,
  AppInstalledFrame,
  AppUninstalledFrame,
  AppDisabledFrame,
  AppEnabledFrame,
  AppDeletedFrame,
  ChatReadFrame,
  UserUpdatedFrame,
  UserRoleChangedFrame,
  TeamUpdatedFrame,
  NotificationsChangedFrame,
  DeliveryChangedFrame,
]);

/** The first frame of every connection: where the stream continues from. */
export const HelloFrame = Type.Object(
  { type: Type.Literal('hello'), cursor: StreamCursor, userId: UserId },
  { ...closed, description: 'the stream is open; frames after `cursor` follow' },
);

/** Why a client must reload instead of resuming. */
export const resyncReasons = ['tooFarBehind', 'unknownCursor'] as const;

export const ResyncFrame = Type.Object(
  { type: Type.Literal('resync'), reason: oneOf(resyncReasons) },
  { ...closed, description: 'what was missed cannot be replayed: reload, then reconnect without a cursor' },
);

export const ReconnectFrame = Type.Object(
  { type: Type.Literal('reconnect') },
  { ...closed, description: 'this server is shutting down, or holds more than its share of streams: reconnect (to another) with the last cursor' },
);

/**
 * Sent now and then (with the heartbeat) when entries passed that were not for this person: the client
 * stores it like any cursor, so that it never falls behind by entries it never saw.
 */
export const CursorFrame = Type.Object(
  { type: Type.Literal('cursor'), cursor: StreamCursor },
  { ...closed, description: 'nothing for this person up to `cursor`' },
);

export const StreamControlFrame = Type.Union([HelloFrame, CursorFrame, ResyncFrame, ReconnectFrame]);

/** How long a client shows someone typing after a `typing` frame, unless another comes. */
export const typingShownMs = 6_000;

export const TypingFrame = Type.Object(
  {
    type: Type.Literal('typing'),
    /** What `to` takes for the person receiving it: the channel id, or in a direct chat the typist's id. */
    chat: ChatId,
    userId: UserId,
  },
  { ...closed, description: 'someone is typing in a chat the person reads: show it for a few seconds, unless another comes' },
);

/** `online`: the person has a stream open (on any server process); `away`: none for a while. */
export const presenceStatuses = ['online', 'away'] as const;

export const PresenceFrame = Type.Object(
  { type: Type.Literal('presence'), status: oneOf(presenceStatuses), userIds: Type.Array(UserId) },
  { ...closed, description: 'people of the team came online or went away; after hello, one frame lists everyone online' },
);

/**
 * Frames that are not kept: no cursor, never replayed. A client that was away gets the presence of
 * everyone again when it reconnects, and misses the typing that passed meanwhile.
 */
export const StreamLiveFrame = Type.Union([TypingFrame, PresenceFrame]);
export const StreamFrame = Type.Union([StreamDataFrame, StreamControlFrame, StreamLiveFrame]);

export type ChatReadState = Static<typeof ChatReadState>;
export type StreamDataFrame = Static<typeof StreamDataFrame>;
export type StreamControlFrame = Static<typeof StreamControlFrame>;
export type StreamLiveFrame = Static<typeof StreamLiveFrame>;
export type PresenceStatus = (typeof presenceStatuses)[number];
export type StreamFrame = Static<typeof StreamFrame>;
export type StreamDataFrameType = StreamDataFrame['type'];
export type StreamFrameType = StreamFrame['type'];
export type ResyncReason = (typeof resyncReasons)[number];
export type AppSwitch = (typeof appSwitches)[number];

/** Every frame type, data frames first. */
export const streamFrameTypes: readonly StreamFrameType[] = [...StreamDataFrame.anyOf, ...StreamControlFrame.anyOf, ...StreamLiveFrame.anyOf].map(
  (schema) => schema.properties.type.const as StreamFrameType,
);

/**
 * Close codes the server uses besides WebSocket's own. 4000: reload and reconnect without a cursor (after
 * a `resync` frame, or a client that read too slowly). 1012 (service restart): reconnect with the cursor.
 * 1008 (policy): the person was signed out or deactivated.
 */
export const streamCloseCodes = { resync: 4000, reconnect: 1012, signedOut: 1008 } as const;
