import { isChannelId } from '@aviary/protocol';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { PickerOption } from './PickerOption';
import { mentionedIds } from './notify/rules';
import { mentionMarkup, suggestionsFor, tokenAtCaret, typedMentions, type Mention, type Suggestion } from './suggestions';
import { useWorkspace } from './workspaceContext';

/**
 * The text of a message being written in a textarea, with what is offered as the person types
 * (suggestions.ts): people after `@` (each one picked is remembered in `mentions`, for the message's
 * mentions and markup), emoji after a `:` word, and, with `commands`, the slash commands after a leading
 * `/`. The chat's composer and the thread's reply box share it. `list` is the listbox to show above the
 * box, `boxProps` what the textarea needs for it, and `onListKeys` the list's keys (arrows, Tab, Enter,
 * Escape): it answers whether it took the key. `insert` puts text at the caret; `outgoing` is the message
 * as it goes out.
 */
export function useMessageText(box: RefObject<HTMLTextAreaElement | null>, { chat, initial = '', mentions, commands }: { chat: string; initial?: string; mentions: RefObject<Mention[]>; commands: boolean }) {
  const workspace = useWorkspace();
  const [text, setText] = useState(initial);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const listId = useId();

  const found = dismissed ? undefined : tokenAtCaret(text, caret);
  const token = found?.kind === '/' && !commands ? undefined : found;
  // The emoji shortcodes, fetched the first time a `:` word is typed.
  const [shortcodes, setShortcodes] = useState<typeof import('./emoji/shortcodes')>();
  const wantsShortcodes = token?.kind === ':' && shortcodes === undefined;
  useEffect(() => {
    if (wantsShortcodes) void import('./emoji/shortcodes').then((module) => setShortcodes(() => module));
  }, [wantsShortcodes]);
  const suggestions = token ? suggestionsFor(token, workspace.people, workspace.apps, isChannelId(chat), shortcodes?.shortcodesStarting) : [];
  const open = suggestions.length > 0;

  /** The text as typed (or changed), the caret at `at`: the list opens again at its first option. */
  const edit = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    setActive(0);
    setDismissed(false);
  };

  // After a pick or a change of the selection, the caret (or selection) goes where it belongs before the next key is typed.
  const pendingSelection = useRef<[number, number] | undefined>(undefined);
  useLayoutEffect(() => {
    if (pendingSelection.current === undefined) return;
    box.current?.focus();
    box.current?.setSelectionRange(...pendingSelection.current);
    pendingSelection.current = undefined;
  });
  const select = (start: number, end: number) => void (pendingSelection.current = [start, end]);

  /** `value` in place of the text from `start` to `end`, the caret after it (and the focus in the box). */
  const replace = (start: number, end: number, value: string) => {
    const at = start + value.length;
    edit(text.slice(0, start) + value + text.slice(end), at);
    select(at, at);
  };

  /** Puts `value` in place of the selection (at the caret): an emoji picked in a dialog. */
  const insert = (value: string) => {
    const element = box.current;
    replace(element?.selectionStart ?? text.length, element?.selectionEnd ?? text.length, value);
  };

  const pick = (suggestion: Suggestion) => {
    if (!token) return;
    const value = suggestion.kind === 'person' ? `@${suggestion.label} ` : suggestion.kind === 'emoji' ? `${suggestion.emoji} ` : `${suggestion.label} `;
    if (suggestion.kind === 'person') mentions.current.push({ userId: suggestion.id, label: suggestion.label });
    replace(token.start, caret, value);
  };

  const onListKeys = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) {
      pick(suggestions[active] ?? suggestions[0]!);
    } else if (event.key === 'Escape') {
      setDismissed(true);
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  };

  /** A `:code:` typed whole (the list closes at the second colon) as its emoji, once the shortcodes are loaded. */
  const withEmoji = (value: string) => (shortcodes ? shortcodes.withEmoji(value) : value);

  /**
   * The message as it goes out: its text (trimmed, each `:code:` typed whole as its emoji), and of the
   * people picked (`picked`, those in `mentions` by default), those whose `@Name` is still in it: its
   * ServiceML naming them (none without) and their ids.
   */
  const outgoing = (chosen: Mention[] = mentions.current) => {
    const body = withEmoji(text.trim());
    // Names typed out after `@` count as picked ones do.
    const picked = [...chosen, ...typedMentions(body, workspace.people, chosen)];
    return { body, serviceml: mentionMarkup(body, picked), mentioned: mentionedIds(body, picked) };
  };

  const list = open && (
    <ul id={listId} role="listbox" className="picker-list composer-suggestions" aria-label={token?.kind === '@' ? 'People' : token?.kind === ':' ? 'Emoji' : 'Slash commands'}>
      {suggestions.map((suggestion, index) => (
        <PickerOption key={suggestion.id} listId={listId} index={index} active={active} onPick={() => pick(suggestion)}>
          <span className="picker-label">{suggestion.label}</span>
          {suggestion.detail && <span className="picker-detail">{suggestion.detail}</span>}
        </PickerOption>
      ))}
    </ul>
  );
  const boxProps = {
    value: text,
    dir: 'auto' as const,
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? `${listId}-${active}` : undefined,
    onChange: (event: { target: HTMLTextAreaElement }) => edit(event.target.value, event.target.selectionStart),
    onSelect: (event: { currentTarget: HTMLTextAreaElement }) => setCaret(event.currentTarget.selectionStart),
  };
  return { text, setText, edit, select, insert, outgoing, list, boxProps, onListKeys };
}
