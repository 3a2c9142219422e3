import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { failureText, methods, type Message } from '../../api/client';
import { useStreamFrames } from '../../stream/useStream';
import { Avatar } from '../Avatar';
import { formatFullTime, formatTime } from '../format';
import { MarkdownView } from '../MarkdownView';
import { useWorkspace } from '../workspaceContext';
import './threads.css';

const PAGE = 100;

/**
 * A message's thread: the parent, its replies (the newest 100, oldest first, kept live by the stream) and
 * a composer with "Also send to the channel". A side panel on a wide screen, the whole view on a phone.
 * Opening it, and each reply that comes while it is open, marks the thread read.
 */
export function ThreadPanel({ chat, root, onClose }: { chat: string; root: string; onClose: () => void }) {
  const workspace = useWorkspace();
  const [parent, setParent] = useState<Message>();
  const [replies, setReplies] = useState<Message[]>([]);
  const [error, setError] = useState<string>();
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    let live = true;
    Promise.all([methods.chat.fetchMessages({ chat, uids: [root] }), methods.chat.fetchMessages({ chat, thread: root, limit: PAGE })]).then(
      ([[found], page]) => {
        if (!live) return;
        setParent(found);
        setReplies(page.reverse());
      },
      (failure: unknown) => live && setError(failureText(failure)),
    );
    return () => {
      live = false;
    };
  }, [chat, root]);
  const newest = replies.at(-1)?.uid;
  useEffect(() => {
    if (newest) methods.threads.markRead({ messageUid: root }).catch(() => undefined);
  }, [root, newest]);
  useEffect(() => panel.current?.querySelector<HTMLElement>('textarea')?.focus(), [root]);
  useStreamFrames((frames) => {
    for (const frame of frames) {
      if (frame.type === 'message.created' && frame.message.threadParent === root) setReplies((shown) => (shown.some((m) => m.uid === frame.message.uid) ? shown : [...shown, frame.message]));
      if (frame.type === 'message.updated') {
        if (frame.message.uid === root) setParent((shown) => ({ ...frame.message, ...(shown?.thread ? { thread: shown.thread } : {}) }));
        else setReplies((shown) => shown.map((m) => (m.uid === frame.message.uid ? frame.message : m)));
      }
      if (frame.type === 'message.deleted') {
        if (frame.message.uid === root) onClose();
        setReplies((shown) => shown.filter((m) => m.uid !== frame.message.uid));
      }
      if (frame.type === 'thread.updated' && frame.message.uid === root) setParent((shown) => shown && { ...shown, thread: frame.thread });
    }
  });
  const sent = useCallback((message: Message) => setReplies((shown) => (shown.some((m) => m.uid === message.uid) ? shown : [...shown, message])), []);
  const count = parent?.thread?.replyCount ?? replies.length;

  return (
    <aside ref={panel} className="thread-panel" aria-labelledby={titleId} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <header className="thread-panel-header">
        <h2 id={titleId}>Thread</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="thread-panel-body">
        {error && <p className="form-error" role="alert">{error}</p>}
        {parent && <ThreadMessage message={parent} timezone={workspace.me.timeZone} name={workspace.nameOf(parent.from) ?? 'Someone'} />}
        <p className="thread-panel-count">{count === 1 ? '1 reply' : `${count} replies`}</p>
        <ol className="thread-replies" aria-label="Replies">
          {replies.map((reply) => (
            <li key={reply.uid}>
              <ThreadMessage message={reply} timezone={workspace.me.timeZone} name={reply.sendAs?.name ?? workspace.nameOf(reply.from) ?? 'Someone'} />
            </li>
          ))}
        </ol>
      </div>
      {parent?.deletedAt === undefined && <ThreadComposer chat={chat} root={root} onSent={sent} />}
    </aside>
  );
}

function ThreadMessage({ message, name, timezone }: { message: Message; name: string; timezone: string }) {
  return (
    <article className="message" data-uid={message.uid} aria-label={name}>
      <div className="message-gutter">
        <Avatar name={name} image={message.sendAs?.profileImage} />
      </div>
      <div className="message-body">
        <header className="message-header">
          <span className="message-sender">{name}</span>
          <time dateTime={new Date(message.timestamp).toISOString()} title={formatFullTime(message.timestamp, timezone)}>
            {formatTime(message.timestamp, timezone)}
          </time>
        </header>
        {message.deletedAt !== undefined ? <p className="message-deleted">This message was deleted</p> : <MarkdownView text={message.text} />}
      </div>
    </article>
  );
}

function ThreadComposer({ chat, root, onSent }: { chat: string; root: string; onSent: (message: Message) => void }) {
  const [text, setText] = useState('');
  const [alsoInChannel, setAlsoInChannel] = useState(false);
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() === '' || sending) return;
    setSending(true);
    setError(undefined);
    try {
      const answer = await methods.chat.sendFromComposer({ to: chat, text, threadParent: root, ...(alsoInChannel ? { alsoInChannel: true } : {}) });
      if ('message' in answer) onSent(answer.message);
      setText('');
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setSending(false);
    }
  };
  return (
    <form className="thread-composer" onSubmit={send}>
      {error && <p className="form-error" role="alert">{error}</p>}
      <textarea
        aria-label="Reply in the thread"
        placeholder="Reply…"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <div className="thread-composer-row">
        <label>
          <input type="checkbox" checked={alsoInChannel} onChange={(event) => setAlsoInChannel(event.target.checked)} />
          Also send to the channel
        </label>
        <button type="submit" className="primary" disabled={sending || text.trim() === ''}>
          Reply
        </button>
      </div>
    </form>
  );
}
