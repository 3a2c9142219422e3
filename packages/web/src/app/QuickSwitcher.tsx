import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Conversation } from '../api/client';
import { PickerOption } from './PickerOption';
import { chatPath, navigate } from './route';
import { ConversationIcon } from './Sidebar';

/** Ctrl/Cmd+K: type part of a name, arrows to choose, Enter to open, Escape to leave; the last option searches messages for the text. */
export function QuickSwitcher({ conversations, onClose, onChosen, onSearch }: { conversations: Conversation[]; onClose: () => void; onChosen: () => void; onSearch: (query: string) => void }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const listId = useId();
  const matches = conversations.filter((conversation) => conversation.name.toLowerCase().includes(text.trim().toLowerCase())).slice(0, 12);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const searchIndex = text.trim() ? matches.length : -1;
  const searchMessages = () => {
    onClose();
    onSearch(text.trim());
  };
  const open = (conversation: Conversation | undefined) => {
    if (active === searchIndex) return searchMessages();
    if (!conversation) return;
    navigate(chatPath(conversation.chat));
    onClose();
    // The chosen chat's composer takes the focus, the one already open too (it is not opened anew).
    onChosen();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') setActive((index) => Math.min(index + 1, Math.max(searchIndex, matches.length - 1)));
    else if (event.key === 'ArrowUp') setActive((index) => Math.max(index - 1, 0));
    else if (event.key === 'Enter') open(matches[active]);
    else return;
    event.preventDefault();
  };

  return (
    <dialog ref={dialog} className="switcher" aria-label="Jump to a conversation" onClose={onClose}>
      <input
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={matches[active] || active === searchIndex ? `${listId}-${active}` : undefined}
        aria-label="Conversation name"
        placeholder="Jump to a channel or person"
        value={text}
        autoFocus
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label="Matching conversations" className="picker-list">
        {matches.map((conversation, index) => (
          <PickerOption key={conversation.chat} listId={listId} index={index} active={active} onPick={() => open(conversation)}>
            <ConversationIcon conversation={conversation} />
            {conversation.name}
          </PickerOption>
        ))}
        {matches.length === 0 && <li className="picker-empty">No conversation matches.</li>}
        {searchIndex >= 0 && (
          <PickerOption listId={listId} index={searchIndex} active={active} onPick={searchMessages}>
            Search messages for “{text.trim()}”
          </PickerOption>
        )}
      </ul>
    </dialog>
  );
}
