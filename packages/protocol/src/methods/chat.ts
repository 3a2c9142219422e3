import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { idempotencyParams } from '../idempotency.js';
import { ChatId, MessageUid, UserId } from '../ids.js';
import { FileId, fileLimits } from '../files.js';
import { AttachmentInput, Channel, Message, SendAs } from '../models.js';
import { closedObject, IdList, NonEmptyString, oneOf } from '../params.js';
import { InteractionAnswer } from '../interactions.js';
import { Contact } from './people.js';
import { AppIdParam, ServiceClientParam } from './fields.js';
import { ChatReadState } from '../stream.js';

/** One entry of a person's chat list. */
export const Conversation = Type.Object(
  {
    /** What `to` and `chat` take: the channel id, or the other person's id. */
    chat: ChatId,
    kind: oneOf(['channel', 'direct'] as const),
    name: Type.String(),
    channel: Type.Optional(Channel),
    user: Type.Optional(Contact),
    /** A direct chat whose other person's account is deactivated: it takes no new messages. */
    deactivated: Type.Optional(Type.Literal(true)),
    /** The newest message the person may see, if any. */
    lastMessage: Type.Optional(Message),
    /** How far the person has read (client.markChatRead), if they ever marked it. */
    readUpTo: Type.Optional(MessageUid),
    /** Messages from others after `readUpTo` (all of them without it) that the person may see, counted up to 1,000. */
    unread: Type.Integer({ minimum: 0 }),
    /** Of those, the ones whose `mentions` name the person. */
    mentions: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type Conversation = Static<typeof Conversation>;

const sending = {
  to: ChatId,
  text: NonEmptyString(40_000, 'the message text, also its plain-text form for notifications and search'),
  serviceml: Type.Optional(Type.String({ description: 'a ServiceML document (<serviceml>…</serviceml>)' })),
  notification: Type.Optional(Type.String({ maxLength: 1000, description: 'the notification text' })),
  mentions: Type.Optional(IdList(UserId, { maxItems: 100, description: 'user ids mentioned by the message' })),
  sendAs: Type.Optional(SendAs),
  attachments: Type.Optional(Type.Array(AttachmentInput, { description: 'at most one Attachment' })),
  onBehalfOf: Type.Optional(UserId),
  visibleTo: Type.Optional(IdList(UserId, { minItems: 1, maxItems: 100, description: 'the only users who see the message' })),
  id: Type.Optional(NonEmptyString(255, 'a client id; repeating it within 24 hours returns the first message’s uid')),
  threadParent: Type.Optional(MessageUid),
  alsoInChannel: Type.Optional(Type.Boolean({ description: 'with threadParent: the reply shows in the channel’s history too' })),
  files: Type.Optional(IdList(FileId, { maxItems: fileLimits.maxFilesPerMessage, description: `files the caller uploaded (files.upload), at most ${fileLimits.maxFilesPerMessage}, in the order shown` })),
};

export const sendMessage = defineMethod({
  name: 'chat.sendMessage',
  summary: 'Send a message to a user (direct chat) or a channel, as the token’s user or bot, or as the signed-in person.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: Type.Object(sending),
  // A person sends as themselves, to everyone of the chat: sendAs, onBehalfOf, visibleTo and notification are an app's.
  sessionParams: Type.Object(
    {
      to: sending.to, text: sending.text, serviceml: sending.serviceml, mentions: sending.mentions, attachments: sending.attachments, id: sending.id,
      threadParent: sending.threadParent, alsoInChannel: sending.alsoInChannel, files: sending.files,
    },
    { additionalProperties: false },
  ),
  result: Type.Object({ uid: MessageUid }),
  errors: ['UnknownRecipient', 'PermissionDenied', 'UnknownFile'],
  idempotencyParam: idempotencyParams['chat.sendMessage'],
});

/** The slash command a composer's text called instead of sending a message. */
const SlashCommandCalled = closedObject({ slashCommand: closedObject({ appId: AppIdParam, command: Type.String() }), answer: InteractionAnswer });

export const sendFromComposer = defineMethod({
  name: 'chat.sendFromComposer',
  summary:
    'What the person’s composer sends: a message as the person (the checks of chat.sendMessage), answered with the whole ' +
    'message, unless its plain text calls an installed app’s slash command: then the app receives client.slashCommand.',
  callers: ['session'],
  rateClass: 'message',
  params: closedObject({
    to: sending.to,
    text: sending.text,
    serviceml: sending.serviceml,
    mentions: sending.mentions,
    attachments: sending.attachments,
    id: sending.id,
    threadParent: sending.threadParent,
    alsoInChannel: sending.alsoInChannel,
    files: sending.files,
    client: ServiceClientParam,
  }),
  result: Type.Union([closedObject({ message: Message }), SlashCommandCalled]),
  errors: ['UnknownRecipient', 'PermissionDenied', 'UnknownChat', 'AppDisabled', 'AppUnreachable', 'OriginNotAllowed', 'NotInstalled', 'UnknownFile'],
});

/**
 * An Aviary extension: the identity that sent a message through an app edits it with a token of that same
 * app. Mentions, visibleTo, notification and sendAs stay as sent; see docs/reference/methods.md.
 */
export const updateMessage = defineMethod({
  name: 'chat.updateMessage',
  summary: 'Replace the text (and optionally the attachments) of a message the token’s user or bot sent through this app, or the signed-in person sent themselves.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: Type.Object({
    messageUid: MessageUid,
    text: NonEmptyString(40_000, 'the new message text, also its plain-text form for notifications and search'),
    serviceml: Type.Optional(Type.String({ description: 'a ServiceML document for the new text; left out, the message shows the new text plain' })),
    attachments: Type.Optional(Type.Array(AttachmentInput, { description: 'at most one Attachment, replacing the message’s; [] removes it; left out, the message keeps its own' })),
  }),
  result: Type.Object({ uid: MessageUid, editedAt: Type.Integer({ description: 'when the edit was stored, milliseconds since the epoch' }) }),
  errors: ['PermissionDenied'],
});

/** An Aviary extension: deleting a message removes it from the history of everyone who reads the chat. */
export const deleteMessage = defineMethod({
  name: 'chat.deleteMessage',
  summary:
    'Delete a message: the signed-in person’s own, a message the token’s user or bot sent through this app, or (a team admin, ' +
    'signed in) any message they can see. It leaves the history of everyone; their streams get message.deleted.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({ messageUid: MessageUid }),
  result: closedObject({ uid: MessageUid, deletedAt: Type.Integer({ description: 'when it was deleted, milliseconds since the epoch' }) }),
  errors: ['PermissionDenied'],
});

/** What a message said before an edit. */
export const MessageEdit = closedObject({
  editedAt: Type.Integer({ description: 'when this text was replaced, milliseconds since the epoch' }),
  editedBy: UserId,
  previousText: Type.String(),
  previousServiceml: Type.Optional(Type.String()),
});

export const listMessageEdits = defineMethod({
  name: 'chat.listMessageEdits',
  summary: 'A team admin reads what a message they can see said before each of its edits, oldest first.',
  callers: ['session'],
  rateClass: 'read',
  params: closedObject({ messageUid: MessageUid }),
  result: closedObject({ uid: MessageUid, edits: Type.Array(MessageEdit) }),
  errors: ['PermissionDenied'],
});

export const fetchMessages = defineMethod({
  name: 'chat.fetchMessages',
  summary:
    'Fetch messages of a chat by uid, or (without uids) a page of its history, newest first; with `thread`, a page of that ' +
    'thread’s replies instead (a channel’s history leaves out replies not also sent to it).',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({
    chat: ChatId,
    uids: Type.Optional(IdList(MessageUid, { maxItems: 25, description: 'up to 25 message uids; unknown ones are skipped' })),
    thread: Type.Optional(MessageUid),
    before: Type.Optional(MessageUid),
    after: Type.Optional(MessageUid),
    around: Type.Optional(MessageUid),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, 1 to 100 (default 50)' })),
  }),
  result: Type.Array(Message),
  errors: ['UnknownChat'],
});

export const markRead = defineMethod({
  name: 'chat.markRead',
  summary: 'The person has read a chat up to `uid`, a message of it that they can see: markers only move forward; the person’s streams get chat.read.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ chat: ChatId, uid: MessageUid }),
  result: ChatReadState,
  errors: ['UnknownChat'],
});

export const markUnread = defineMethod({
  name: 'chat.markUnread',
  summary:
    'The person has not read a chat from `uid` on, a message of it that they can see: the marker goes back to just before it ' +
    '(readUpTo is then the uid just below `uid`, which names no message), and the person’s streams get chat.read.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ chat: ChatId, uid: MessageUid }),
  result: ChatReadState,
  errors: ['UnknownChat'],
});

export const signalTyping = defineMethod({
  name: 'chat.signalTyping',
  summary:
    'The person is typing in a chat they read: the other readers with a stream open get a typing frame (not kept, never ' +
    'replayed). Send it at most every 3 seconds while typing.',
  callers: ['session'],
  rateClass: 'message',
  params: closedObject({ chat: ChatId }),
  result: closedObject({}),
  errors: ['UnknownChat'],
});

export const listConversations = defineMethod({
  name: 'chat.listConversations',
  summary: 'The person’s channels and direct chats, most recently active first, with their unread counts.',
  callers: ['session'],
  rateClass: 'read',
  result: closedObject({ conversations: Type.Array(Conversation) }),
});
