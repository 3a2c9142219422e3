import { api } from '@aviary/protocol';
import { resolveReadableChat } from '../../../core/policies/chat.js';
import { presentMessage } from '../../../core/presenters/messages.js';
import { reactionsOf } from '../../../core/queries/reactions.js';
import { DEFAULT_PAGE_SIZE, fetchHistoryPage, findMessagesByUids } from '../../../core/queries/messages.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/**
 * With `uids`: those messages, in the order asked (unknown, other-chat and hidden ones skipped).
 * Without: a page of history, newest first — see historyPageQuery for how `before`/`after` pick it.
 * Each message with reactions carries them, as the caller sees them.
 */
export default defineHandler(api.chat.fetchMessages, async (params, caller, ctx) => {
  if (params.uids !== undefined) {
    const paging = (['before', 'after', 'limit'] as const).find((name) => params[name] !== undefined);
    if (paging) throw invalidParameter(paging, `${paging} pages through history and cannot be combined with uids; send one or the other.`);
  }
  const chatKey = await resolveReadableChat(ctx.db, caller.user, params.chat);
  const rows =
    params.uids !== undefined
      ? await findMessagesByUids(ctx.db, chatKey, caller.user.id, params.uids)
      : await fetchHistoryPage(ctx.db, chatKey, caller.user.id, {
          before: params.before,
          after: params.after,
          limit: params.limit ?? DEFAULT_PAGE_SIZE,
        });
  const reactions = await reactionsOf(ctx.db, rows.map((row) => row.uid), caller.user.id);
  return rows.map((row) => {
    const shown = reactions.get(row.uid);
    return shown ? { ...presentMessage(row), reactions: shown } : presentMessage(row);
  });
});
