import { useId, useState } from 'react';
import type { Person } from '../api/client';
import { Avatar } from './Avatar';
import { fullName } from './format';
import './people.css';

/** The most rows shown at once: typing narrows the list, so a large team never makes a long page. */
const MOST_SHOWN = 50;

interface PeoplePickerProps {
  people: readonly Person[];
  /** The search field's label. */
  label: string;
  /** The button of each row ("Add", "Message"); its accessible name adds the person's name. */
  action: string;
  onPick: (person: Person) => void;
  disabled?: boolean;
  /** Whether the search field takes the focus when the dialog opens. */
  autoFocus?: boolean;
}

/** A search by name over people, each with one button: adding them to a channel, or writing to them. */
export function PeoplePicker({ people, label, action, onPick, disabled, autoFocus }: PeoplePickerProps) {
  const [text, setText] = useState('');
  const searchId = useId();
  const query = text.trim().toLowerCase();
  const matches = people.filter((person) => fullName(person).toLowerCase().includes(query));
  return (
    <div className="people-picker">
      <label htmlFor={searchId} className="people-search-label">
        {label}
      </label>
      <input
        id={searchId}
        // Not type="search": there Escape clears the field instead of closing the dialog.
        type="text"
        role="searchbox"
        className="people-search"
        placeholder="Type a name"
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
        {...(autoFocus ? { 'data-autofocus': true } : {})}
      />
      <ul className="modal-list people-list" aria-label={`${label}: ${matches.length === 1 ? '1 person' : `${matches.length} people`}`}>
        {matches.slice(0, MOST_SHOWN).map((person) => (
          <li key={person.id} className="modal-row">
            <Avatar name={fullName(person)} image={person.profileImage} small />
            <div className="modal-row-text">
              <span className="picker-label">{fullName(person)}</span>
              {person.isBot && <span className="picker-detail">App bot</span>}
            </div>
            <button type="button" className="secondary" disabled={disabled} onClick={() => onPick(person)} aria-label={`${action} ${fullName(person)}`}>
              {action}
            </button>
          </li>
        ))}
        {matches.length === 0 && <li className="picker-empty">{people.length === 0 ? 'No one to choose.' : 'No one matches.'}</li>}
        {matches.length > MOST_SHOWN && <li className="picker-empty">{matches.length - MOST_SHOWN} more: type more of the name.</li>}
      </ul>
    </div>
  );
}
