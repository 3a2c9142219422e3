import type { Static } from '@sinclair/typebox';
import type { FileMatch, SearchMatch } from '@aviary/protocol';
import { isUserId } from '@aviary/protocol';
import { presentFile } from '../files/presentFile.js';
import type { FoundFile } from '../search/searchFiles.js';
import type { FoundMessage } from '../search/searchMessages.js';
import { splitSnippet } from '../search/textMatch.js';
import { presentMessage } from './messages.js';

/** Characters of text shown for a match found by filters alone (no words to centre a snippet on). */
const PLAIN_SNIPPET_LENGTH = 200;

/** A found message as search.messages shows it to `readerId`: the chat named as the reader names it. */
export function presentSearchMatch(found: FoundMessage, readerId: string): Static<typeof SearchMatch> {
  const { row } = found;
  const { chat, direct } = chatAsNamedBy(row, readerId);
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

/** A message's chat as `readerId` names it in chat.fetchMessages: the channel id, or the other person of a direct chat. */
function chatAsNamedBy(row: { to_id: string; from_user_id: string; chat_key: string }, readerId: string): { chat: string; direct: boolean } {
  const direct = isUserId(row.to_id);
  return { chat: direct ? (row.to_id === readerId ? row.from_user_id : row.to_id) : row.chat_key, direct };
}

/** A file found by search.files, with the message it was found through, as `readerId` names its chat. */
export function presentFileMatch(found: FoundFile, readerId: string): Static<typeof FileMatch> {
  const { chat, direct } = chatAsNamedBy(found.message, readerId);
  return { file: presentFile(found.file), messageUid: found.message.uid, chat, chatType: direct ? 'direct' : 'channel', joinable: !direct && !found.member };
}
