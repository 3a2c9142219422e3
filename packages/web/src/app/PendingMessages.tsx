import { useWorkspace } from './workspaceContext';

/**
 * The person's messages to this chat that the server does not have yet, below the history: "Sending…"
 * while a try is under way, else "Not sent yet: waiting for the connection" with Cancel. Each goes again
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
            {message.state === 'sending' ? 'Sending…' : 'Not sent yet: waiting for the connection'}
          </span>
          {message.state === 'waiting' && (
            <button type="button" className="chip" onClick={() => outbox.cancel(message.id)} aria-label={`Cancel the message “${snippet(message.text)}”`}>
              Cancel
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

const snippet = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
