import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { failureText, type Message } from '../api/client';
import { useMessageChanges } from './messageChanges';

/** The message's text in place, to edit: Enter saves, Shift+Enter adds a line, Escape cancels. */
export function MessageEditor({ message }: { message: Message }) {
  const changes = useMessageChanges();
  // Back after its row scrolled away and into view again: what was typed, and the focus left where it is.
  const resumed = useRef(changes.editDraft.current !== undefined);
  const [text, setText] = useState(changes.editDraft.current ?? message.text);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || resumed.current) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const type = (value: string) => {
    setText(value);
    changes.editDraft.current = value;
  };

  const close = () => changes.setEditing(undefined);
  const save = () => {
    const body = text.trim();
    if (body === '' || saving) return;
    if (body === message.text) return close();
    setSaving(true);
    changes.saveEdit(message, body).then(close, (failure: unknown) => {
      setError(failureText(failure));
      setSaving(false);
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
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
      <textarea ref={box} value={text} rows={Math.min(8, text.split('\n').length)} aria-label="Edit message" onChange={(event) => type(event.target.value)} onKeyDown={onKeyDown} />
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
