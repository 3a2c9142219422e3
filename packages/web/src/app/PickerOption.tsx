import type { ReactNode } from 'react';

/**
 * One option of a list a combobox drives: the arrows move `active`, and a click picks the option without
 * taking the focus from the input.
 */
export function PickerOption({ listId, index, active, onPick, children }: { listId: string; index: number; active: number; onPick: () => void; children: ReactNode }) {
  return (
    <li
      id={`${listId}-${index}`}
      role="option"
      aria-selected={index === active}
      className={`picker-item${index === active ? ' active' : ''}`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPick}
    >
      {children}
    </li>
  );
}
