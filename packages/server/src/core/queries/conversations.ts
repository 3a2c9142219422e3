import type { Conversation } from '@aviary/protocol';
import { directChatKey } from '../../store/rows/messages.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { displayName } from '../interactions/interactionChat.js';
import { presentChannel } from '../presenters/channels.js';
import { presentMessage } from '../presenters/messages.js';
import { presentPublicProfile } from '../presenters/users.js';
import { listChannelsOf } from './channels.js';
import { directPartners } from './guestReach.js';
import { fetchHistoryPage } from './messages.js';
import { readMarkers, unreadCounts } from './unread.js';

/**
 * The person's channels and direct chats, most recently active first, each with the newest message the
 * person may see (chats without one come last, by name) and how much of it they have not read.
 */
export async function listConversations(db: Db, person: UsersTable): Promise<Conversation[]> {
  const conversations = [...(await channelConversations(db, person)), ...(await directConversations(db, person))];
  const markers = await readMarkers(db, person.id);
  await Promise.all(conversations.map(async (conversation) => addActivity(db, person, conversation, markers)));
  return conversations.sort(byRecentActivity);
}

async function channelConversations(db: Db, person: UsersTable): Promise<Conversation[]> {
  return (await listChannelsOf(db, person.id)).map(({ channel, memberCount }) => ({
    chat: channel.id,
    kind: 'channel',
    name: channel.name,
    channel: presentChannel(channel, memberCount),
    unread: 0,
    mentions: 0,
  }));
}

/** A direct chat exists once either side has written in it. */
async function directConversations(db: Db, person: UsersTable): Promise<Conversation[]> {
  const others = await directPartners(db, person);
  if (others.length === 0) return [];
  const users = await db.selectFrom('users').selectAll().where('id', 'in', others).execute();
  return users.map((user) => ({
    chat: user.id,
    kind: 'direct',
    name: displayName(user),
    user: { ...presentPublicProfile(user), ...(user.bot_app_id !== null ? { isBot: true as const } : {}) },
    ...(user.deactivated_at !== null ? { deactivated: true as const } : {}),
    unread: 0,
    mentions: 0,
  }));
}

/** The newest message and the unread counts of a conversation. */
async function addActivity(db: Db, person: UsersTable, conversation: Conversation, markers: Map<string, string>): Promise<void> {
  const chatKey = conversation.kind === 'channel' ? conversation.chat : directChatKey(person.id, conversation.chat);
  const [last] = await fetchHistoryPage(db, chatKey, person.id, { limit: 1 });
  if (last) conversation.lastMessage = presentMessage(last);
  const readUpTo = markers.get(chatKey);
  if (readUpTo !== undefined) conversation.readUpTo = readUpTo;
  Object.assign(conversation, await unreadCounts(db, chatKey, person.id, readUpTo));
}

/** Newest activity first; chats without a message the person may see last, by name. */
function byRecentActivity(a: Conversation, b: Conversation): number {
  const aUid = a.lastMessage?.uid ?? '';
  const bUid = b.lastMessage?.uid ?? '';
  if (aUid !== bUid) return aUid < bUid ? 1 : -1;
  return a.name.localeCompare(b.name) || (a.chat < b.chat ? -1 : 1);
}
