import { useCallback, useEffect, useState } from 'react';
import { failureText, methods, type Conversation, type Message } from '../../api/client';
import { chatOf } from '../../stream/applyFrames';
import { FormError } from '../FormError';
import { Modal } from '../Modal';
import { MessageLinks } from '../PinnedPanel';

/** The "Mentions" view: recent messages that mention the person (chat.listMentions), newest first, a page at a time; each opens its chat at it. */
export function MentionsDialog({ me, conversations, onClose }: { me: string; conversations: Conversation[] | undefined; onClose: () => void }) {
  const [messages, setMessages] = useState<Message[]>();
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const load = useCallback((after?: string) => {
    methods.chat.listMentions(after === undefined ? {} : { cursor: after }).then(
      (page) => {
        setMessages((shown) => [...(after === undefined ? [] : (shown ?? [])), ...page.messages]);
        setCursor(page.nextCursor);
      },
      (failure: unknown) => setError(failureText(failure)),
    );
  }, []);
  useEffect(() => load(), [load]);
  const entries = (messages ?? []).map((message) => {
    const chat = chatOf(message, me);
    const where = conversations?.find((conversation) => conversation.chat === chat);
    return { message, chat, detail: where ? `In ${where.kind === 'channel' ? '#' : ''}${where.name}` : '' };
  });
  return (
    <Modal title="Mentions" onClose={onClose} className="pins-modal">
      <FormError text={error} />
      {messages === undefined && !error ? (
        <p className="page-message">Loading…</p>
      ) : (
        <MessageLinks entries={entries} onOpen={onClose} empty="Nobody has mentioned you yet. Messages with @your name, @channel or @here show here." label="Messages that mention you" />
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
