import { Type } from '@sinclair/typebox';

/** `<prefix>:` followed by 16 lowercase base32 characters (RFC 4648 alphabet). */
const idBody = '[a-z2-7]{16}';

/** A user id's pattern without anchors, for patterns that hold one (ServiceML's `<user userId="…">`). */
export const userIdShape = `u:${idBody}`;

export const userIdPattern = new RegExp(`^${userIdShape}$`);
export const channelIdPattern = new RegExp(`^g:${idBody}$`);
export const chatIdPattern = new RegExp(`^[ug]:${idBody}$`);
/** Message uids: 26 characters of Crockford base32, time-ordered (ULID layout). */
export const messageUidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const UserId = Type.String({ pattern: `^${userIdShape}$`, description: 'a user id (u: followed by 16 base32 characters)' });
export const ChannelId = Type.String({ pattern: `^g:${idBody}$`, description: 'a channel id (g: followed by 16 base32 characters)' });
export const ChatId = Type.String({
  pattern: `^[ug]:${idBody}$`,
  description: 'a chat id: a user id (u:…) or a channel id (g:…)',
});
export const MessageUid = Type.String({
  pattern: '^[0-9A-HJKMNP-TV-Z]{26}$',
  description: 'a message uid (26 characters, as returned by chat.sendMessage)',
});

export const isUserId = (value: string): boolean => userIdPattern.test(value);
export const isChannelId = (value: string): boolean => channelIdPattern.test(value);
