import type { Conversation } from '@aviary/protocol';
import { directChatKey } from '../../store/rows/messages.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { displayName } from '../interactions/interactionChat.js';
import { presentChannel } from '../presenters/channels.js';
import { presentMessage } from '../presenters/messages.js';
import { presentPublicProfile } from '../presenters/users.js';
import { fetchHistoryPage } from './messages.js';

/**
 * The person's channels and direct chats, most recently active first, each with the newest message the
 * person may see (chats without one come last, by name).
 */
export async function listConversations(db: Db, person: UsersTable): Promise<Conversation[]> {
  const conversations = [...(await channelConversations(db, person)), ...(await directConversations(db, person))];
  await Promise.all(conversations.map(async (conversation) => addLastMessage(db, person, conversation)));
  return conversations.sort(byRecentActivity);
}

async function channelConversations(db: Db, person: UsersTable): Promise<Conversation[]> {
  const rows = await db
    .selectFrom('channels as c')
    .innerJoin('channel_members as mine', 'mine.channel_id', 'c.id')
    .selectAll('c')
    .select((eb) =>
      eb.selectFrom('channel_members as m').select(eb.fn.countAll<number>().as('count')).whereRef('m.channel_id', '=', 'c.id').as('memberCount'),
    )
    .where('mine.user_id', '=', person.id)
    .execute();
  return rows.map(({ memberCount, ...channel }) => ({
    chat: channel.id,
    kind: 'channel',
    name: channel.name,
    channel: presentChannel(channel, Number(memberCount)),
  }));
}

/** A direct chat exists once either side has written in it. */
async function directConversations(db: Db, person: UsersTable): Promise<Conversation[]> {
  const keys = await db
    .selectFrom('messages')
    .select('chat_key')
    .distinct()
    .where('team_id', '=', person.team_id)
    .where((eb) => eb.or([eb.and([eb('from_user_id', '=', person.id), eb('to_id', 'like', 'u:%')]), eb('to_id', '=', person.id)]))
    .execute();
  const others = keys.map(({ chat_key }) => chat_key.split('|').find((id) => id !== person.id) ?? person.id);
  if (others.length === 0) return [];
  const users = await db.selectFrom('users').selectAll().where('id', 'in', others).execute();
  return users.map((user) => ({
    chat: user.id,
    kind: 'direct',
    name: displayName(user),
    user: { ...presentPublicProfile(user), ...(user.bot_app_id !== null ? { isBot: true as const } : {}) },
  }));
}

async function addLastMessage(db: Db, person: UsersTable, conversation: Conversation): Promise<void> {
  const chatKey = conversation.kind === 'channel' ? conversation.chat : directChatKey(person.id, conversation.chat);
  const [last] = await fetchHistoryPage(db, chatKey, person.id, { limit: 1 });
  if (last) conversation.lastMessage = presentMessage(last);
}

/** Newest activity first; chats without a message the person may see last, by name. */
function byRecentActivity(a: Conversation, b: Conversation): number {
  const aUid = a.lastMessage?.uid ?? '';
  const bUid = b.lastMessage?.uid ?? '';
  if (aUid !== bUid) return aUid < bUid ? 1 : -1;
  return a.name.localeCompare(b.name) || (a.chat < b.chat ? -1 : 1);
}
