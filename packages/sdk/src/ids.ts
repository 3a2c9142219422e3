/**
 * Branded ids from plain strings, checked: for ids an app keeps in its own configuration or database.
 * Ids that come from events and results are branded already.
 */
import { isChannelId, isChatId, isMessageUid, isUserId } from '@aviary/protocol';
import type { AppId, ChannelId, ChatId, MessageUid, UserId } from './types.js';

function checked<Id extends string>(test: (value: string) => value is Id, kind: string, example: string) {
  return (value: string): Id => {
    if (typeof value !== 'string' || !test(value)) throw new TypeError(`${JSON.stringify(value)} is not ${kind} (such as ${example})`);
    return value;
  };
}

export const toUserId = checked<UserId>(isUserId, 'a user id', 'u:abcdefghijklmnop');
export const toChannelId = checked<ChannelId>(isChannelId, 'a channel id', 'g:abcdefghijklmnop');
export const toChatId = checked<ChatId>(isChatId, 'a chat id (a user id or a channel id)', 'g:abcdefghijklmnop');
export const toMessageUid = checked<MessageUid>(isMessageUid, 'a message uid', '01JABCDEFGHJKMNPQRSTVWXYZ0');
export const toAppId = checked<AppId>((value): value is AppId => value.length > 0 && value.length <= 255, 'an app id', 'a:abcdefghijklmnop');
