import { useContext, type ReactNode } from 'react';
import { UnreadTotalsContext } from './workspaceContext';

/**
 * On a narrow screen, the button that shows the list of conversations; with a dot when some are unread
 * (red when some mention the person), since the sidebar's own counts are out of sight there.
 */
export function MenuButton({ onMenu }: { onMenu: () => void }) {
  const { unread, mentions } = useContext(UnreadTotalsContext);
  const label = unread > 0 ? `Show conversations: ${unread} unread${mentions > 0 ? `, ${mentions} mentioning you` : ''}` : 'Show conversations';
  return (
    <button type="button" className="icon-button menu-button" aria-label={label} title={label} onClick={onMenu}>
      ☰
      {unread > 0 && <span className={`menu-badge${mentions > 0 ? ' mention' : ''}`} aria-hidden="true" />}
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
