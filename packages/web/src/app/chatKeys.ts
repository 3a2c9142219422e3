// Imports name their .js: the root project's tests import this module, with Node's resolution.
import type { Conversation } from '../api/client.js';

/** The sidebar's two lists, in its order: the channels not archived, then the direct chats. */
export function sidebarLists(conversations: Conversation[] | undefined): { channels: Conversation[]; directs: Conversation[] } {
  const all = conversations ?? [];
  return {
    // Archived channels leave the sidebar (still readable from search and links).
    channels: all.filter((conversation) => conversation.kind === 'channel' && conversation.channel?.archivedAt === undefined),
    directs: all.filter((conversation) => conversation.kind === 'direct'),
  };
}

/**
 * Alt+↑ / Alt+↓: the chat above or below `current` in the sidebar (from none, the first or the last);
 * with `unreadOnly` (Alt+Shift), the nearest one that way with unread messages. Undefined at either end:
 * the keys do not wrap around.
 */
export function chatAlong(conversations: Conversation[] | undefined, current: string | undefined, step: 1 | -1, unreadOnly: boolean): string | undefined {
  const { channels, directs } = sidebarLists(conversations);
  const order = [...channels, ...directs];
  const at = order.findIndex((conversation) => conversation.chat === current);
  for (let index = at < 0 ? (step === 1 ? 0 : order.length - 1) : at + step; index >= 0 && index < order.length; index += step) {
    const conversation = order[index]!;
    if (!unreadOnly || conversation.unread > 0) return conversation.chat;
  }
  return undefined;
}
