import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { api, failureText, type Message } from '../api/client';
import { appsWith, ChatButton } from './AppButtons';
import { PickerOption } from './PickerOption';
import { mentionMarkup, suggestionsFor, tokenAtCaret, type Mention, type Suggestion } from './suggestions';
import { useWorkspace } from './workspaceContext';

/**
 * Enter sends, Shift+Enter adds a line. `@` picks a person (a mention), a leading `/` lists the slash
 * commands of the person's apps. A slash command's answer is followed (toast, widget, tab); a `/` that
 * names no command goes out as text, as the server decides.
 */
export function Composer({ chat, placeholder, onSent }: { chat: string; placeholder: string; onSent: (message: Message) => void }) {
  const workspace = useWorkspace();
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [sending, setSending] = useState(false);
  const mentions = useRef<Mention[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const listId = useId();

  // A conversation opens ready to type in, as people expect of a chat.
  useEffect(() => input.current?.focus(), [chat]);

  const token = dismissed ? undefined : tokenAtCaret(text, caret);
  const suggestions = token ? suggestionsFor(token, workspace.people, workspace.apps) : [];
  const open = suggestions.length > 0;
  const pickers = appsWith(workspace.apps, 'attachmentPickerButton');

  const edit = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    setActive(0);
    setDismissed(false);
  };

  const pick = (suggestion: Suggestion) => {
    if (!token) return;
    const insert = suggestion.kind === 'person' ? `@${suggestion.label} ` : `${suggestion.label} `;
    if (suggestion.kind === 'person') mentions.current.push({ userId: suggestion.id, label: suggestion.label });
    const next = text.slice(0, token.start) + insert + text.slice(caret);
    const at = token.start + insert.length;
    edit(next, at);
    pendingCaret.current = at;
  };

  // After a pick, the caret goes right after what was inserted, before the next key is typed.
  const pendingCaret = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (pendingCaret.current === undefined) return;
    input.current?.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = undefined;
  });

  const send = async () => {
    const body = text.trim();
    if (body === '' || sending) return;
    setSending(true);
    try {
      const result = await api.sendMessage({ to: chat, text: body, serviceml: mentionMarkup(body, mentions.current) });
      if ('message' in result) onSent(result.message);
      else workspace.showAnswer(result.answer, { appId: result.slashCommand.appId, chat });
      mentions.current = [];
      edit('', 0);
    } catch (error) {
      workspace.toast(failureText(error), 'error');
    } finally {
      setSending(false);
      input.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) => (index + step + suggestions.length) % suggestions.length);
        return event.preventDefault();
      }
      if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) {
        pick(suggestions[active] ?? suggestions[0]!);
        return event.preventDefault();
      }
      if (event.key === 'Escape') {
        setDismissed(true);
        return event.preventDefault();
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {open && (
        <ul id={listId} role="listbox" className="picker-list composer-suggestions" aria-label={token?.kind === '@' ? 'People' : 'Slash commands'}>
          {suggestions.map((suggestion, index) => (
            <PickerOption key={suggestion.id} listId={listId} index={index} active={active} onPick={() => pick(suggestion)}>
              <span className="picker-label">{suggestion.label}</span>
              {suggestion.detail && <span className="picker-detail">{suggestion.detail}</span>}
            </PickerOption>
          ))}
        </ul>
      )}
      <div className="composer-box">
        <textarea
          ref={input}
          rows={1}
          value={text}
          placeholder={placeholder}
          aria-label={placeholder}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${active}` : undefined}
          onChange={(event) => edit(event.target.value, event.target.selectionStart)}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-tools">
          {pickers.map((app) => (
            <ChatButton key={app.id} app={app} button="attachmentPickerButton" chat={chat} className="chip">
              + {app.integrations.attachmentPickerButton!.name}
            </ChatButton>
          ))}
          <span className="composer-hint" aria-hidden="true">
            <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
          </span>
          <button type="submit" className="primary send-button" disabled={sending || text.trim() === ''}>
            Send
          </button>
        </div>
      </div>
    </form>
  );
}
