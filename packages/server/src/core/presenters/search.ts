import type { Static } from '@sinclair/typebox';
import type { SearchMatch } from '@aviary/protocol';
import { isUserId } from '@aviary/protocol';
import type { FoundMessage } from '../search/searchMessages.js';
import { splitSnippet } from '../search/textMatch.js';
import { presentMessage } from './messages.js';

/** Characters of text shown for a match found by filters alone (no words to centre a snippet on). */
const PLAIN_SNIPPET_LENGTH = 200;

/** A found message as search.messages shows it to `readerId`: the chat named as the reader names it. */
export function presentSearchMatch(found: FoundMessage, readerId: string): Static<typeof SearchMatch> {
  const { row } = found;
  const direct = isUserId(row.to_id);
  const chat = direct ? (row.to_id === readerId ? row.from_user_id : row.to_id) : row.chat_key;
  const plain = [...row.text];
  const snippet =
    found.snippet !== null
      ? splitSnippet(found.snippet)
      : [{ text: plain.length > PLAIN_SNIPPET_LENGTH ? `${plain.slice(0, PLAIN_SNIPPET_LENGTH).join('')}…` : row.text }];
  return {
    message: presentMessage(row),
    chat,
    chatType: direct ? 'direct' : 'channel',
    joinable: !direct && !found.member,
    snippet,
  };
}
