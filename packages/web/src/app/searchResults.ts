import type { methods } from '../api/client';

/** One match of `search.messages` (docs/search.md). */
export type SearchMatch = Awaited<ReturnType<typeof methods.search.messages>>['matches'][number];

/** Matches of one chat, newest first, in the order the chats first appear in the (newest-first) results. */
export interface ChatGroup {
  chat: string;
  chatType: SearchMatch['chatType'];
  joinable: boolean;
  matches: SearchMatch[];
}

/** The results grouped by chat: each chat once, at the place of its newest match; pages appended merge into their chats' groups. */
export function groupByChat(matches: readonly SearchMatch[]): ChatGroup[] {
  const groups = new Map<string, ChatGroup>();
  for (const match of matches) {
    const group = groups.get(match.chat);
    if (group) group.matches.push(match);
    else groups.set(match.chat, { chat: match.chat, chatType: match.chatType, joinable: match.joinable, matches: [match] });
  }
  return [...groups.values()];
}

/** The filters the search box understands, for its help: the same syntax as the method (protocol/src/searchQuery.ts). */
export const searchHelp: ReadonlyArray<readonly [string, string]> = [
  ['deploy friday', 'messages with both words (or words starting with them)'],
  ['"release notes"', 'those words in that order'],
  ['-staging', 'leave out messages with that word'],
  ['in:#channel', 'only that channel'],
  ['in:@person', 'only your direct chat with them'],
  ['from:@person', 'only what they sent'],
  ['has:link', 'only messages with a link'],
  ['before:2026-01-31', 'sent before that day (also after: and on:)'],
];
