import { Type, type Static } from '@sinclair/typebox';
import { Attachment } from './attachment.js';
import { MessageReaction } from './reactions.js';
import { PinInfo } from './pinned.js';
import { ThreadSummary } from './threads.js';
import { FileInfo } from './files.js';
import { AppId, ChannelId, MessageUid, UserId, type ChatId, type TId } from './ids.js';

const Url = Type.String({ description: 'an http or https URL' });

export const User = Type.Object({
  id: UserId,
  teamId: Type.String(),
  email: Type.Optional(Type.String()),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin'), Type.Literal('guest')]),
  timezone: Type.String({ description: 'the UTC offset of timeZone at the moment of the answer, such as +05:30' }),
  timeZone: Type.String({ description: 'the person’s IANA time zone, such as Europe/Paris' }),
  profileImage: Type.Optional(Url),
  isBot: Type.Optional(Type.Boolean()),
});
export type UserModel = Static<typeof User>;

/** What a person says they are up to, shown next to their name until it expires (users.updateProfile). */
export const PersonStatus = Type.Object(
  {
    text: Type.String({ description: 'the status, up to 100 characters' }),
    emoji: Type.Optional(Type.String({ description: 'one emoji shown before it' })),
    expiresAt: Type.Optional(Type.Integer({ description: 'when it is cleared (epoch milliseconds); absent: until changed' })),
  },
  { additionalProperties: false },
);
export type PersonStatusModel = Static<typeof PersonStatus>;

export const PublicProfile = Type.Object({
  id: UserId,
  firstName: Type.String(),
  lastName: Type.String(),
  profileImage: Type.Optional(Url),
  /** Present while the person has a status that has not expired. */
  status: Type.Optional(PersonStatus),
});
export type PublicProfileModel = Static<typeof PublicProfile>;

export const Channel = Type.Object({
  id: ChannelId,
  name: Type.String(),
  purpose: Type.String(),
  type: Type.Union([Type.Literal('public'), Type.Literal('private')]),
  memberCount: Type.Integer(),
  profileImage: Type.Optional(Url),
  /** Present while the channel is archived (read-only): when a team admin archived it. */
  archivedAt: Type.Optional(Type.Integer({ description: 'when a team admin archived the channel (read-only, out of the sidebar); absent while not archived' })),
});
export type ChannelModel = Static<typeof Channel>;

export const ChannelMember = Type.Object({
  userId: UserId,
  affiliation: Type.Union([Type.Literal('moderator'), Type.Literal('member')]),
  publicProfile: Type.Optional(PublicProfile),
});
export type ChannelMemberModel = Static<typeof ChannelMember>;

export const memberErrors = ['UserNotFound', 'UserNotFromSameTeam', 'UserRestricted', 'AlreadyMember', 'NotMember'] as const;
export type MemberError = (typeof memberErrors)[number];

export const ChannelMemberStatus = Type.Object({
  status: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('failed')]),
  error: Type.Optional(Type.Union(memberErrors.map((code) => Type.Literal(code)))),
});
export type ChannelMemberStatusModel = Static<typeof ChannelMemberStatus>;

export const MemberStatuses = Type.Record(Type.String(), ChannelMemberStatus);

export const SendAs = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 80 }), profileImage: Type.Optional(Type.String({ maxLength: 2048 })) },
  { additionalProperties: false, description: 'an object {name, profileImage?}' },
);

/**
 * An attachment as a caller sends it. It is checked field by field by @aviary/serviceml, which names the
 * exact path of a problem and accepts looser spellings (`"true"`, numeric strings, action aliases); what
 * the server stores and sends back is an `Attachment`.
 */
export const AttachmentInput = Type.Record(Type.String(), Type.Unknown(), {
  description: 'an Attachment object (docs/reference/attachments.md): id, title, description, color, url, forward, views, downloads, buttons',
});

export const Message = Type.Object({
  uid: MessageUid,
  id: Type.Optional(Type.String()),
  from: UserId,
  to: Type.String({ description: 'the chat: the recipient’s user id or the channel id' }) as TId<ChatId>,
  timestamp: Type.Integer({ description: 'milliseconds since the epoch' }),
  text: Type.String(),
  serviceml: Type.Optional(Type.String()),
  notification: Type.Optional(Type.String()),
  mentions: Type.Optional(Type.Array(UserId)),
  sendAs: Type.Optional(SendAs),
  appId: Type.Optional(AppId('the app that sent the message')),
  attachments: Type.Optional(Type.Array(Attachment)),
  visibleTo: Type.Optional(Type.Array(UserId)),
  editedAt: Type.Optional(Type.Integer({ description: 'when the sender last edited the message (chat.updateMessage), milliseconds since the epoch' })),
  webhookId: Type.Optional(Type.String({ description: 'the incoming webhook that posted it (an Aviary extension): clients mark it as an integration’s' })),
  reactions: Type.Optional(Type.Array(MessageReaction, { description: 'the reactions, oldest emoji first: only in chat.fetchMessages' })),
  pinned: Type.Optional(PinInfo),
  threadParent: Type.Optional(MessageUid),
  alsoInChannel: Type.Optional(Type.Literal(true, { description: 'a thread reply also sent to the channel: its history shows it' })),
  thread: Type.Optional(ThreadSummary),
  deletedAt: Type.Optional(Type.Integer({ description: 'a parent deleted while it had replies: it stays, emptied, for its thread' })),
  files: Type.Optional(Type.Array(FileInfo, { description: 'the files the message carries (files.upload, then chat.sendMessage `files`)' })),
});

/** Which message a frame or an event names: its uid, and its chat as `from` and `to` tell it. */
export const MessageRef = Type.Object({ uid: MessageUid, from: UserId, to: Type.String({ description: 'the chat: the recipient’s user id or the channel id' }) as TId<ChatId> }, { additionalProperties: false });
export type MessageRefModel = Static<typeof MessageRef>;
export type MessageModel = Static<typeof Message>;
