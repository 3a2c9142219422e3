import { useCallback, useEffect, useState } from 'react';
import { failureText, methods, type Conversation, type Message } from '../api/client';
import { chatOf } from '../stream/applyFrames';
import { FormError } from './FormError';
import { MessageLinks, shortTime } from './PinnedPanel';
import { Modal } from './Modal';
import { useWorkspace } from './workspaceContext';

type Item = { message: Message; savedAt: number };

/** The person's saved items (saved.list), the most recently saved first, a page at a time; each opens its chat at it. */
export function SavedDialog({ conversations, onClose }: { conversations: Conversation[] | undefined; onClose: () => void }) {
  const workspace = useWorkspace();
  const [items, setItems] = useState<Item[]>();
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const load = useCallback((after?: string) => {
    methods.saved.list(after === undefined ? {} : { cursor: after }).then(
      (page) => {
        setItems((shown) => [...(after === undefined ? [] : (shown ?? [])), ...page.items]);
        setCursor(page.nextCursor);
      },
      (failure: unknown) => setError(failureText(failure)),
    );
  }, []);
  useEffect(() => load(), [load]);
  const entries = (items ?? []).map(({ message, savedAt }) => {
    const chat = chatOf(message, workspace.me.id);
    const where = conversations?.find((conversation) => conversation.chat === chat);
    const place = where ? `In ${where.kind === 'channel' ? '#' : ''}${where.name} · ` : '';
    return { message, chat, detail: `${place}saved ${shortTime(savedAt, workspace.me.timezone)}` };
  });
  return (
    <Modal title="Saved items" onClose={onClose} className="pins-modal">
      <FormError text={error} />
      {items === undefined && !error ? <p className="page-message">Loading…</p> : <MessageLinks entries={entries} onOpen={onClose} empty="Nothing saved yet. Save a message from its … menu." label="Saved messages" />}
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
