import { isUserId, type ClientEventCommon } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { resolveReadableChat } from '../policies/chat.js';

/** Where a person acted: the chat as they name it (the other person's id for a direct chat), and its name. */
export interface InteractionChat {
  person: UsersTable;
  chat: string;
  chatName: string;
  chatKey: string;
}

/** How people and bots are named in events: "Pat Person", "Weather Bot". */
export const displayName = (user: Pick<UsersTable, 'first_name' | 'last_name'>): string =>
  `${user.first_name} ${user.last_name}`.trim();

/**
 * The chat of an interaction, when the person may read it (a channel they are in, or a direct chat with a
 * teammate), or UnknownChat naming `parameter` — the body field the caller put the chat in.
 */
export async function interactionChatOf(db: Db, person: UsersTable, chat: string, parameter = 'chat'): Promise<InteractionChat> {
  let chatKey: string;
  try {
    chatKey = await resolveReadableChat(db, person, chat);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'UnknownChat') throw new ApiError('UnknownChat', error.message, { parameter });
    throw error;
  }
  return { person, chat, chatName: await chatName(db, chat), chatKey };
}

/** The attributes every `client.*` event carries (docs/reference/events.md). */
export function commonAttributes({ person, chat, chatName }: InteractionChat): ClientEventCommon {
  return { userId: person.id, userName: displayName(person), chat, chatName };
}

/** A channel's name, or for a direct chat the other person's name (one's own, when writing to oneself). */
async function chatName(db: Db, chat: string): Promise<string> {
  if (isUserId(chat)) {
    const user = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', chat).executeTakeFirstOrThrow();
    return displayName(user);
  }
  const channel = await db.selectFrom('channels').select('name').where('id', '=', chat).executeTakeFirstOrThrow();
  return channel.name;
}
