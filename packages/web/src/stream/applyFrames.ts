// Imports name their .js: the root project's tests import this module, with Node's resolution.
import { isChannelId, type PublicProfileModel, type StreamDataFrame, type Team } from '@aviary/protocol';
import type { Conversation, Message } from '../api/client.js';
import { fullName } from '../app/format.js';
import { mentionsMe } from '../app/notify/rules.js';

export interface Applied {
  conversations: Conversation[];
  /** A frame named a chat the list does not have yet (a new direct chat, a channel I joined). */
  reloadConversations: boolean;
  reloadApps: boolean;
  /** A team admin changed the person's own role: their session (and what the page shows an admin) is read again. */
  reloadMe: boolean;
}

/** The chat a message belongs to, as the person sees it: the channel, or the other person. */
export function chatOf(message: Pick<Message, 'from' | 'to'>, me: string): string {
  if (isChannelId(message.to)) return message.to;
  return message.from === me ? message.to : message.from;
}

/**
 * Applies a batch of frames to the sidebar's conversations. Idempotent: a message already the last one
 * is not counted again, so a frame replayed after a reconnect changes nothing. `openChat` is the chat
 * the person is looking at: its new messages are read, not unread.
 */
export function applyFrames(start: Conversation[], frames: StreamDataFrame[], me: string, openChat: string | undefined): Applied {
  let conversations = start;
  let reloadConversations = false;
  let reloadApps = false;
  let reloadMe = false;
  const update = (chat: string, change: (conversation: Conversation) => Conversation) => {
    const index = conversations.findIndex((conversation) => conversation.chat === chat);
    if (index < 0) return false;
    conversations = conversations.map((conversation, at) => (at === index ? change(conversation) : conversation));
    return true;
  };

  for (const frame of frames) {
    switch (frame.type) {
      case 'message.created': {
        const { message } = frame;
        // A reply only in its thread is no news in the channel (its history, last message and counts).
        if (message.threadParent !== undefined && !message.alsoInChannel) break;
        const chat = chatOf(message, me);
        const known = update(chat, (conversation) => {
          if (conversation.lastMessage && !isNewer(message, conversation.lastMessage)) return conversation;
          const counts = message.from !== me && chat !== openChat;
          return {
            ...conversation,
            lastMessage: message,
            unread: (conversation.unread ?? 0) + (counts ? 1 : 0),
            mentions: (conversation.mentions ?? 0) + (counts && mentionsMe(message, me) ? 1 : 0),
          };
        });
        if (!known) reloadConversations = true;
        break;
      }
      case 'message.updated':
        update(chatOf(frame.message, me), (conversation) =>
          conversation.lastMessage?.uid === frame.message.uid ? { ...conversation, lastMessage: frame.message } : conversation,
        );
        break;
      case 'message.deleted': {
        // The chat's last message is gone (its preview is now the one before), or one counted as unread (and
        // perhaps a mention): what is left, only the server knows.
        const { uid, from } = frame.message;
        const conversation = conversations.find((candidate) => candidate.chat === chatOf(frame.message, me));
        const unread = from !== me && (conversation?.unread ?? 0) > 0 && (conversation?.readUpTo === undefined || uid > conversation.readUpTo);
        if (conversation && (conversation.lastMessage?.uid === uid || unread)) reloadConversations = true;
        break;
      }
      case 'chat.read':
        update(frame.chat, (conversation) => ({ ...conversation, readUpTo: frame.readUpTo, unread: frame.unread, mentions: frame.mentions }));
        break;
      case 'channel.created':
      case 'channel.membersAdded':
        if (!update(frame.channel.id, (conversation) => ({ ...conversation, name: frame.channel.name, channel: frame.channel }))) reloadConversations = true;
        break;
      case 'channel.membersRemoved':
        if (frame.userIds.includes(me)) conversations = conversations.filter((conversation) => conversation.chat !== frame.channel.id);
        else update(frame.channel.id, (conversation) => ({ ...conversation, channel: frame.channel }));
        break;
      case 'user.updated': {
        const { user } = frame;
        update(user.id, (conversation) => ({ ...conversation, name: fullName(user), user: { ...conversation.user, status: undefined, profileImage: undefined, ...user } }));
        break;
      }
      case 'channel.updated':
        update(frame.channel.id, (conversation) => ({ ...conversation, name: frame.channel.name, channel: frame.channel }));
        break;
      case 'user.roleChanged':
        if (frame.userId === me) reloadMe = true;
        break;
      case 'delivery.changed':
      case 'notifications.changed':
        break; // the developer dashboard's delivery log reads these (useStreamFrames)
      case 'reaction.added':
      case 'reaction.removed':
      case 'pin.added':
      case 'pin.removed':
      case 'thread.updated':
      case 'thread.followUpdated':
      case 'thread.followedReply':
        break; // the open chat's history and thread show them (ConversationView, the thread panel)
      case 'team.updated':
        break; // the workspace takes the team from it (updatedTeam)
      case 'app.installed':
      case 'app.uninstalled':
      case 'app.disabled':
      case 'app.enabled':
      case 'app.deleted':
        reloadApps = true;
        break;
      default:
        frame satisfies never;
    }
  }
  return { conversations: byLastActivity(conversations), reloadConversations, reloadApps, reloadMe };
}

function isNewer(message: Message, than: Message): boolean {
  return message.timestamp > than.timestamp || (message.timestamp === than.timestamp && message.uid > than.uid);
}

/** Most recently active first, as the server orders them. */
function byLastActivity(conversations: Conversation[]): Conversation[] {
  const activity = (conversation: Conversation) => conversation.lastMessage?.timestamp ?? 0;
  return [...conversations].sort((a, b) => activity(b) - activity(a));
}

/** The profiles a batch changed (user.updated), the last of each person's winning. */
export function updatedProfiles(frames: StreamDataFrame[]): Map<string, PublicProfileModel> {
  const profiles = new Map<string, PublicProfileModel>();
  for (const frame of frames) if (frame.type === 'user.updated') profiles.set(frame.user.id, frame.user);
  return profiles;
}

/** The team as the batch's last team.updated left it, if one came. */
export function updatedTeam(frames: StreamDataFrame[]): Team | undefined {
  return frames.findLast((frame) => frame.type === 'team.updated')?.team;
}
