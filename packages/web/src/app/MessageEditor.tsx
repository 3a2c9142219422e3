import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { failureText, type Message } from '../api/client';
import { chatOf } from '../stream/applyFrames';
import { useMessageChanges } from './messageChanges';
import { composerMentions, type Mention } from './suggestions';
import { useMessageText } from './useMessageText';
import { useWorkspace } from './workspaceContext';

/**
 * The message's text in place, to edit: Enter saves, Shift+Enter adds a line, Escape cancels. It offers
 * people after `@` and emoji after a `:` word, as the composer does; the people the message named stay
 * named while their `@Name` stays in the text (its ServiceML is made again, as the composer makes it).
 */
export function MessageEditor({ message }: { message: Message }) {
  const changes = useMessageChanges();
  const me = useWorkspace().me.id;
  // Back after its row scrolled away and into view again: what was typed, and the focus left where it is.
  const resumed = useRef(changes.editDraft.current !== undefined);
  // The people the message names; undefined for ServiceML the composer did not make (an edit makes it plain text).
  const [named] = useState(() => (message.serviceml === undefined ? [] : composerMentions(message.serviceml, message.text)));
  const [draft] = useState(() => changes.editDraft.current ?? { text: message.text, mentions: named ?? [] });
  const mentions = useRef<Mention[]>(draft.mentions);
  const box = useRef<HTMLTextAreaElement>(null);
  const { text, outgoing, list, boxProps, onListKeys } = useMessageText(box, { chat: chatOf(message, me), initial: draft.text, mentions, commands: false });
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element || resumed.current) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  useEffect(() => {
    if (text !== draft.text || changes.editDraft.current !== undefined) changes.editDraft.current = { text, mentions: mentions.current };
  }, [text, draft.text, changes.editDraft]);

  const close = () => changes.setEditing(undefined);
  const save = () => {
    const { body, serviceml } = outgoing();
    if (body === '' || saving) return;
    if (body === message.text && (named === undefined || serviceml === message.serviceml)) return close();
    setSaving(true);
    changes.saveEdit(message, body, serviceml).then(close, (failure: unknown) => {
      setError(failureText(failure));
      setSaving(false);
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (onListKeys(event)) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };
  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      {list}
      <textarea ref={box} {...boxProps} rows={Math.min(8, text.split('\n').length)} aria-label="Edit message" onKeyDown={onKeyDown} />
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="message-editor-actions">
        <span className="composer-hint" aria-hidden="true">
          <kbd>Esc</kbd> to cancel · <kbd>Enter</kbd> to save
        </span>
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={saving || text.trim() === ''}>
          Save
        </button>
      </div>
    </form>
  );
}
