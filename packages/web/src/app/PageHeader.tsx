import type { ReactNode } from 'react';

/** On a narrow screen, the button that shows the list of conversations. */
export function MenuButton({ onMenu }: { onMenu: () => void }) {
  return (
    <button type="button" className="icon-button menu-button" aria-label="Show conversations" onClick={onMenu}>
      ☰
    </button>
  );
}

/** The header of a page of the workspace that is not a conversation (the app directory, the developer area). */
export function PageHeader({ titleId, title, onMenu, children }: { titleId: string; title: ReactNode; onMenu: () => void; children: ReactNode }) {
  return (
    <header className="conversation-header">
      <MenuButton onMenu={onMenu} />
      <div className="conversation-heading">
        <h1 id={titleId}>{title}</h1>
        <p className="conversation-purpose">{children}</p>
      </div>
    </header>
  );
}
