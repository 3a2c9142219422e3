import { methods, type Conversation } from '../../api/client';
import { useStreamFrames } from '../../stream/useStream';
import { MessageListDialog, placeOf, usePagedList } from '../MessageListDialog';
import { shortTime } from '../PinnedPanel';
import { conversationPath } from '../route';
import { useWorkspace } from '../workspaceContext';

const threadsPage = (cursor?: string) =>
  methods.threads.list(cursor === undefined ? {} : { cursor }).then((page) => ({ items: page.threads, nextCursor: page.nextCursor }));

/** The threads the person follows (threads.list), the most recent reply first, unread ones marked; each opens its chat at the parent, the thread beside it. */
export function ThreadsDialog({ conversations, onClose }: { conversations: Conversation[] | undefined; onClose: () => void }) {
  const workspace = useWorkspace();
  const list = usePagedList(threadsPage);
  // A new reply, or the person reading or following elsewhere: the first page again, the others kept,
  // less a thread unfollowed (it may be on a later page, which the first page again would not change).
  useStreamFrames((frames) => {
    const unfollowed = new Set(frames.flatMap((frame) => (frame.type === 'thread.followUpdated' && !frame.following ? [frame.message.uid] : [])));
    if (unfollowed.size > 0) list.drop((thread) => unfollowed.has(thread.message.uid));
    if (frames.some((frame) => frame.type === 'thread.updated' || frame.type === 'thread.followUpdated')) list.refresh((thread) => thread.message.uid);
  });
  const unreadCount = (list.items ?? []).filter((thread) => thread.unread).length;
  const entries = (list.items ?? []).map(({ message, unread }) => {
    const { chat, place } = placeOf(message, workspace.me.id, conversations);
    const count = message.thread?.replyCount === 1 ? '1 reply' : `${message.thread?.replyCount ?? 0} replies`;
    const last = message.thread ? ` · last ${shortTime(message.thread.lastReplyAt, workspace.me.timeZone)}` : '';
    const path = conversationPath(chat, { message: message.uid, thread: message.uid });
    return { message, chat, path, detail: `${unread ? '● Unread · ' : ''}${place ? `${place} · ` : ''}${count}${last}` };
  });
  return (
    <MessageListDialog
      title={unreadCount > 0 ? `Threads (${unreadCount} unread)` : 'Threads'}
      list={list}
      entries={entries}
      empty="No threads yet. Reply to a message in a thread, and you follow it."
      label="Followed threads"
      onClose={onClose}
    />
  );
}
