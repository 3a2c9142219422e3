import { Type, type TString } from '@sinclair/typebox';

/** `<prefix>:` followed by 16 lowercase base32 characters (RFC 4648 alphabet). */
const idBody = '[a-z2-7]{16}';

/** A user id's pattern without anchors, for patterns that hold one (ServiceML's `<user userId="…">`). */
export const userIdShape = `u:${idBody}`;

export const userIdPattern = new RegExp(`^${userIdShape}$`);
export const channelIdPattern = new RegExp(`^g:${idBody}$`);
export const chatIdPattern = new RegExp(`^[ug]:${idBody}$`);
/** Message uids: 26 characters of Crockford base32, time-ordered (ULID layout). */
export const messageUidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

declare const brand: unique symbol;
/** A string that only code which checked it (or received it from the service) can make: `Brand<string, 'UserId'>`. */
export type Brand<T, Name extends string> = T & { readonly [brand]: Name };

export type UserId = Brand<string, 'UserId'>;
export type ChannelId = Brand<string, 'ChannelId'>;
/** Where a message goes: a person (direct chat) or a channel. */
export type ChatId = UserId | ChannelId;
export type MessageUid = Brand<string, 'MessageUid'>;
export type AppId = Brand<string, 'AppId'>;

/**
 * Passed as `Static<T, [BrandedIds]>`, it makes every id of a schema's static type branded: the SDK's
 * surface, where a `ChannelId` must not pass for a `UserId`. Plain `Static<T>` keeps ids as strings, so
 * the server, which makes ids from database rows, needs no casts.
 */
export interface BrandedIds {
  readonly brandedIds: true;
}

/** The other choice: ids as plain strings (the server's own tests, which make ids from rows). */
export interface PlainIds {
  readonly brandedIds: false;
}

/** A string schema whose static type is `Branded` under `BrandedIds`, else `string`. Validation is unchanged. */
export interface TId<Branded extends string> extends TString {
  static: this['params'] extends [BrandedIds] ? Branded : string;
}

const id = <Branded extends string>(options: Parameters<typeof Type.String>[0]) => Type.String(options) as TId<Branded>;

export const UserId = id<UserId>({ pattern: `^${userIdShape}$`, description: 'a user id (u: followed by 16 base32 characters)' });
export const ChannelId = id<ChannelId>({ pattern: `^g:${idBody}$`, description: 'a channel id (g: followed by 16 base32 characters)' });
export const ChatId = id<ChatId>({
  pattern: `^[ug]:${idBody}$`,
  description: 'a chat id: a user id (u:…) or a channel id (g:…)',
});
export const MessageUid = id<MessageUid>({
  pattern: '^[0-9A-HJKMNP-TV-Z]{26}$',
  description: 'a message uid (26 characters, as returned by chat.sendMessage)',
});
/** App ids have no fixed shape in the protocol, only a length limit (255 unless a schema says less). */
export const AppId = (description: string, maxLength = 255) => id<AppId>({ maxLength, description });

export const isUserId = (value: string): value is UserId => userIdPattern.test(value);
export const isChannelId = (value: string): value is ChannelId => channelIdPattern.test(value);
export const isChatId = (value: string): value is ChatId => chatIdPattern.test(value);
export const isMessageUid = (value: string): value is MessageUid => messageUidPattern.test(value);
