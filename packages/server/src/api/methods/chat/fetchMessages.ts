import { api } from '@aviary/protocol';
import { pinsOf } from '../../../core/commands/pins.js';
import { resolveReadableChat } from '../../../core/policies/chat.js';
import { presentMessage } from '../../../core/presenters/messages.js';
import { reactionsOf } from '../../../core/queries/reactions.js';
import { DEFAULT_PAGE_SIZE, fetchHistoryPage, fetchPageAround, findMessagesByUids } from '../../../core/queries/messages.js';
import { threadToRead } from '../../../core/threads/parent.js';
import { threadsOf } from '../../../core/threads/replies.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/**
 * With `uids`: those messages, in the order asked (unknown, other-chat and hidden ones skipped).
 * Without: a page of history, newest first — see historyPageQuery for how `before`/`after` pick it.
 * With `around`: the page centred on that message (for a permalink), newest first.
 * With `thread`: a page of that thread's replies the same way (a channel's history leaves out replies not also sent to it).
 * Each message with reactions carries them, as the caller sees them, a pinned one its pin, a parent its thread summary.
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
  const chatKey = await resolveReadableChat(ctx.db, caller.user, params.chat);
  const thread = params.thread === undefined ? undefined : await threadToRead(ctx.db, chatKey, caller.user.id, params.thread);
  const rows =
    params.uids !== undefined
      ? await findMessagesByUids(ctx.db, chatKey, caller.user.id, params.uids)
      : params.around !== undefined
        ? await fetchPageAround(ctx.db, chatKey, caller.user.id, params.around, params.limit ?? DEFAULT_PAGE_SIZE, thread)
        : await fetchHistoryPage(ctx.db, chatKey, caller.user.id, {
          before: params.before,
          after: params.after,
          limit: params.limit ?? DEFAULT_PAGE_SIZE,
          thread,
        });
  const uids = rows.map((row) => row.uid);
  const [reactions, pins, threads] = await Promise.all([reactionsOf(ctx.db, uids, caller.user.id), pinsOf(ctx.db, uids), threadsOf(ctx.db, uids)]);
  return rows.map((row) => {
    const shown = reactions.get(row.uid);
    const pinned = pins.get(row.uid);
    const summary = threads.get(row.uid);
    return { ...presentMessage(row), ...(shown ? { reactions: shown } : {}), ...(pinned ? { pinned } : {}), ...(summary ? { thread: summary } : {}) };
  });
});
