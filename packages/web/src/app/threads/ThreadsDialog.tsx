import { useCallback, useEffect, useState } from 'react';
import { failureText, methods, type Conversation } from '../../api/client';
import { chatOf } from '../../stream/applyFrames';
import { useStreamFrames } from '../../stream/useStream';
import { FormError } from '../FormError';
import { Modal } from '../Modal';
import { MessageLinks, shortTime } from '../PinnedPanel';
import { useWorkspace } from '../workspaceContext';

type Followed = Awaited<ReturnType<typeof methods.threads.list>>['threads'][number];

/** The threads the person follows (threads.list), the most recent reply first, unread ones marked; each opens its chat at the parent. */
export function ThreadsDialog({ conversations, onClose }: { conversations: Conversation[] | undefined; onClose: () => void }) {
  const workspace = useWorkspace();
  const [threads, setThreads] = useState<Followed[]>();
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const load = useCallback((after?: string) => {
    methods.threads.list(after === undefined ? {} : { cursor: after }).then(
      (page) => {
        setThreads((shown) => [...(after === undefined ? [] : (shown ?? [])), ...page.threads]);
        setCursor(page.nextCursor);
      },
      (failure: unknown) => setError(failureText(failure)),
    );
  }, []);
  useEffect(() => load(), [load]);
  // A new reply, or the person reading or following elsewhere: the list again.
  useStreamFrames((frames) => {
    if (frames.some((frame) => frame.type === 'thread.updated' || frame.type === 'thread.followUpdated')) load();
  });
  const unreadCount = (threads ?? []).filter((thread) => thread.unread).length;
  const entries = (threads ?? []).map(({ message, unread }) => {
    const chat = chatOf(message, workspace.me.id);
    const where = conversations?.find((conversation) => conversation.chat === chat);
    const place = where ? `In ${where.kind === 'channel' ? '#' : ''}${where.name} · ` : '';
    const count = message.thread?.replyCount === 1 ? '1 reply' : `${message.thread?.replyCount ?? 0} replies`;
    const last = message.thread ? ` · last ${shortTime(message.thread.lastReplyAt, workspace.me.timezone)}` : '';
    return { message, chat, detail: `${unread ? '● Unread · ' : ''}${place}${count}${last}` };
  });
  return (
    <Modal title={unreadCount > 0 ? `Threads (${unreadCount} unread)` : 'Threads'} onClose={onClose} className="pins-modal">
      <FormError text={error} />
      {threads === undefined && !error ? (
        <p className="page-message">Loading…</p>
      ) : (
        <MessageLinks entries={entries} onOpen={onClose} empty="No threads yet. Reply to a message in a thread, and you follow it." label="Followed threads" />
      )}
      {cursor !== undefined && (
        <div className="modal-actions">
          <button type="button" className="secondary" onClick={() => load(cursor)}>
            Show more
          </button>
        </div>
      )}
    </Modal>
  );
}
