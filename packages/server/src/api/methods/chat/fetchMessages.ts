import { api, type MessageModel } from '@aviary/protocol';
import { chatKeyFor, resolveReadableChat } from '../../../core/policies/chat.js';
import { presentShownMessage } from '../../../core/presenters/messages.js';
import { reactionsOf } from '../../../core/queries/reactions.js';
import { DEFAULT_PAGE_SIZE } from '../../../core/queries/messages.js';
import { fetchShownPage, fetchShownPageAround, findShownMessagesByUids, type ShownMessageRow, type ShownPage } from '../../../core/queries/shownMessages.js';
import { threadToRead } from '../../../core/threads/parent.js';
import type { UsersTable } from '../../../store/schema.js';
import type { Db } from '../../../store/store.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/**
 * With `uids`: those messages, in the order asked (unknown, other-chat and hidden ones skipped).
 * Without: a page of history, newest first — see historyPageQuery for how `before`/`after` pick it.
 * With `around`: the page centred on that message (for a permalink), newest first.
 * With `thread`: a page of that thread's replies the same way (a channel's history leaves out replies not also sent to it).
 * Each message with reactions carries them, as the caller sees them, a pinned one its pin, a parent its thread summary:
 * read with the messages (shownMessages.ts), the reactions by a second statement only when some have any.
 */
export default defineHandler(api.chat.fetchMessages, async (params, caller, ctx) => {
  if (params.uids !== undefined) {
    const paging = (['before', 'after', 'around', 'limit', 'thread'] as const).find((name) => params[name] !== undefined);
    if (paging) throw invalidParameter(paging, `${paging} pages through history and cannot be combined with uids; send one or the other.`);
  }
  if (params.around !== undefined) {
    const paging = (['before', 'after'] as const).find((name) => params[name] !== undefined);
    if (paging) throw invalidParameter(paging, `${paging} pages through history and cannot be combined with around; send one or the other.`);
  }
  const reader = caller.user;
  if (params.uids !== undefined) {
    const chatKey = await resolveReadableChat(ctx.db, reader, params.chat);
    return present(ctx.db, reader.id, await findShownMessagesByUids(ctx.db, chatKey, reader.id, params.uids));
  }
  const limit = params.limit ?? DEFAULT_PAGE_SIZE;
  if (params.around !== undefined) {
    const chatKey = await resolveReadableChat(ctx.db, reader, params.chat);
    const thread = params.thread === undefined ? undefined : await threadToRead(ctx.db, chatKey, reader.id, params.thread);
    return present(ctx.db, reader.id, await fetchShownPageAround(ctx.db, chatKey, reader.id, params.around, limit, thread));
  }
  return present(ctx.db, reader.id, await readPage(ctx.db, reader, params.chat, { before: params.before, after: params.after, limit, thread: params.thread }));
});

/**
 * A page of the chat or of a thread, read while the reader's access to the chat is checked (two round
 * trips at once on PostgreSQL). The page is read under the key the check answers for a readable chat
 * (chatKeyFor), and nothing read is answered unless the check lets the reader in. The page's statement
 * finds the thread itself, so an empty page may be a thread the reader cannot read: threadToRead tells which.
 */
async function readPage(db: Db, reader: UsersTable, chat: string, page: ShownPage): Promise<ShownMessageRow[]> {
  const chatKey = chatKeyFor(reader, chat);
  const rows = fetchShownPage(db, chatKey, reader.id, page);
  rows.catch(() => undefined);
  await resolveReadableChat(db, reader, chat);
  const found = await rows;
  if (found.length === 0 && page.thread !== undefined) await threadToRead(db, chatKey, reader.id, page.thread);
  return found;
}

/** Each message with what is shown beside it, its reactions read in a second statement when some have any. */
async function present(db: Db, readerId: string, rows: ShownMessageRow[]): Promise<MessageModel[]> {
  const reacted = rows.filter((row) => Number(row.reacted) === 1).map((row) => row.uid);
  const reactions = await reactionsOf(db, reacted, readerId);
  return rows.map((row) => presentShownMessage(row, reactions.get(row.uid)));
}
