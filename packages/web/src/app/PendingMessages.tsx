import { useWorkspace } from './workspaceContext';

/**
 * The person's messages to this chat that the server does not have yet, below the history: "Sending…"
 * while a try is under way, else why not yet (the connection, or the server's limit on speed) with Cancel. Each goes again
 * by itself when the connection is back (useOutbox), and leaves this list for the history once stored.
 */
export function PendingMessages({ chat }: { chat: string }) {
  const { outbox } = useWorkspace();
  const mine = outbox.pending.filter((message) => message.chat === chat);
  if (mine.length === 0) return null;
  return (
    <ul className="pending-messages" aria-label="Messages not sent yet">
      {mine.map((message) => (
        <li key={message.id} className={`pending-message ${message.state}`}>
          <span className="pending-text">{message.text}</span>
          <span className="pending-state" role="status">
            {stateText[message.state]}
          </span>
          {message.state !== 'sending' && (
            <button type="button" className="chip" onClick={() => outbox.cancel(message.id)} aria-label={`Cancel the message “${snippet(message.text)}”`}>
              Cancel
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

const stateText = {
  sending: 'Sending…',
  waiting: 'Not sent yet: waiting for the connection',
  held: 'Not sent yet: sending too fast, it goes in a moment',
} as const;

const snippet = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
