import type { Message } from '../../api/client';
import { Avatar } from '../Avatar';
import { formatFullTime, formatTime } from '../format';
import { useWorkspace } from '../workspaceContext';
import { useOpenThread } from './threadContext';
import './threads.css';

/** Under a parent: its reply count, a few participants' avatars and the last reply's time; opens the thread. */
export function ThreadSummaryLine({ message }: { message: Message }) {
  const workspace = useWorkspace();
  const open = useOpenThread();
  const thread = message.thread;
  if (!thread || thread.replyCount === 0 || !open) return null;
  const count = thread.replyCount === 1 ? '1 reply' : `${thread.replyCount} replies`;
  const names = thread.participants.map((id) => workspace.nameOf(id) ?? 'Someone');
  return (
    <button type="button" className="thread-summary" onClick={() => open(message.uid)} title={formatFullTime(thread.lastReplyAt, workspace.me.timeZone)}>
      <span className="thread-summary-avatars" aria-hidden="true">
        {names.slice(0, 3).map((name, index) => (
          <Avatar key={thread.participants[index]} name={name} image={workspace.pictureOf(thread.participants[index]!)} small />
        ))}
      </span>
      <span className="thread-summary-count">{count}</span>
      <span className="thread-summary-hidden"> from {names.join(', ')},</span>
      <span className="thread-summary-time">Last reply {formatTime(thread.lastReplyAt, workspace.me.timeZone)}</span>
    </button>
  );
}

/** Under a thread reply also sent to the channel: that it belongs to a thread, which it opens. */
export function ThreadReplyNote({ message }: { message: Message }) {
  const open = useOpenThread();
  if (message.threadParent === undefined || !open) return null;
  const parent = message.threadParent;
  return (
    <button type="button" className="thread-reply-note" onClick={() => open(parent)}>
      Replied in a thread
    </button>
  );
}

/** The tool on a message's hover bar that opens its thread to reply. */
export function ReplyInThreadButton({ message, snippet }: { message: Message; snippet: string }) {
  const open = useOpenThread();
  if (!open || message.deletedAt !== undefined || message.visibleTo !== undefined) return null;
  return (
    <button type="button" className="icon-button tool-button" aria-label={`Reply in a thread to “${snippet}”`} title="Reply in thread" onClick={() => open(message.threadParent ?? message.uid)}>
      <span aria-hidden="true">💬</span>
    </button>
  );
}
