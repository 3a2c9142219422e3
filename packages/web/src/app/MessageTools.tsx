import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { failureText, methods, type Message } from '../api/client';
import { appsWith } from './AppButtons';
import { abilitiesOn, useMessageChanges } from './messageChanges';
import { Modal } from './Modal';
import { pinItems } from './PinnedPanel';
import { useSavedItems } from './savedItems';
import { useWorkspace } from './workspaceContext';
import { ReplyInThreadButton } from './threads/ThreadSummaryLine';

/**
 * What floats over a message on hover (or focus): react, the apps' message actions, and the "…" menu
 * with Edit (one's own) and Delete (one's own; a team admin's, every message), Delete asking first. An
 * archived channel's messages offer only what changes nothing of theirs: saving, a link, the apps' actions.
 */
export function MessageTools({ message, chat, snippet, onReact, onSelect }: {
  message: Message;
  chat: string;
  snippet: string;
  onReact: () => void;
  onSelect?: (() => void) | undefined;
}) {
  const workspace = useWorkspace();
  const changes = useMessageChanges();
  const [menuOpen, setMenuOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const actions = appsWith(workspace.apps, 'messageAction');
  const may = abilitiesOn(message, workspace.me, changes.readOnly);
  const saved = useSavedItems();

  return (
    <>
      <div className="message-actions">
        {may.change && (
          <button type="button" className="icon-button tool-button" aria-label={`Add a reaction to “${snippet}”`} title="Add a reaction" onClick={onReact}>
            <span aria-hidden="true">☺+</span>
          </button>
        )}
        {!changes.readOnly && <ReplyInThreadButton message={message} snippet={snippet} />}
        {actions.length > 0 && onSelect && (
          <button type="button" className="chip" aria-label={`Select the message “${snippet}” and others`} onClick={onSelect}>
            Select
          </button>
        )}
        {actions.map((app) => (
          <button
            key={app.id}
            type="button"
            className="chip"
            onClick={() => workspace.act(() => methods.interactions.runMessageAction({ appId: app.id, chat, messageUids: [message.uid] }), { appId: app.id, chat })}
          >
            {app.integrations.messageAction!.name}
          </button>
        ))}
        <MoreMenu
          snippet={snippet}
          open={menuOpen}
          onOpen={setMenuOpen}
          items={[
            ...pinItems(message, chat, saved, workspace, may.change),
            ...(changes.markUnread && may.change && (message.threadParent === undefined || message.alsoInChannel)
              ? [{ label: 'Mark unread', run: () => changes.markUnread!(message) }]
              : []),
            ...(may.edit ? [{ label: 'Edit', run: () => changes.setEditing(message.uid) }] : []),
            ...(may.delete ? [{ label: 'Delete', run: () => setConfirming(true), danger: true }] : []),
          ]}
        />
      </div>
      {confirming && <ConfirmDelete message={message} snippet={snippet} onClose={() => setConfirming(false)} />}
    </>
  );
}

interface MenuItem {
  label: string;
  run: () => void;
  danger?: boolean;
}

/** The space between the "…" button and its menu, in px (styles.css, `.menu`). */
const MENU_GAP = 4;

/** The part of the page an element can be seen in: its nearest scrolling ancestor's box, else the window. */
function visibleArea(element: HTMLElement): { top: number; bottom: number } {
  for (let at = element.parentElement; at; at = at.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(at).overflowY)) return at.getBoundingClientRect();
  }
  return { top: 0, bottom: window.innerHeight };
}

/** The "…" button and its menu: the arrows move between items, Escape closes it and gives the focus back. */
function MoreMenu({ snippet, open, onOpen, items }: { snippet: string; open: boolean; onOpen: (open: boolean) => void; items: MenuItem[] }) {
  const menuId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [above, setAbove] = useState(false);
  // Measured before it is painted: a menu that the view's bottom edge would cut off (the last messages
  // of a chat) opens upwards instead, when it fits there.
  useLayoutEffect(() => {
    if (!open || !menu.current || !trigger.current) {
      setAbove(false);
      return;
    }
    const box = menu.current.getBoundingClientRect();
    const view = visibleArea(menu.current);
    setAbove(box.bottom > view.bottom && trigger.current.getBoundingClientRect().top - box.height - MENU_GAP >= view.top);
  }, [open]);
  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const away = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== trigger.current) onOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, onOpen]);
  const close = () => {
    onOpen(false);
    trigger.current?.focus();
  };
  const move = (step: number) => {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    entries[(at + step + entries.length) % entries.length]?.focus();
  };
  return (
    <div className="more-menu">
      <button
        ref={trigger}
        type="button"
        className="icon-button tool-button"
        aria-label={`More actions for “${snippet}”`}
        title="More actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => onOpen(!open)}
      >
        <span aria-hidden="true">…</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          className={above ? 'menu above' : 'menu'}
          aria-label="Message actions"
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
            else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') move(event.key === 'ArrowDown' ? 1 : -1);
            else return;
            event.preventDefault();
          }}
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className={`menu-item${item.danger ? ' danger' : ''}`}
              onClick={() => {
                onOpen(false);
                item.run();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function ConfirmDelete({ message, snippet, onClose }: { message: Message; snippet: string; onClose: () => void }) {
  const changes = useMessageChanges();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const remove = () => {
    setBusy(true);
    changes.deleteMessage(message).then(onClose, (failure: unknown) => {
      setError(failureText(failure));
      setBusy(false);
    });
  };
  return (
    <Modal title="Delete message?" onClose={onClose}>
      <div className="modal-form">
        <p>“{snippet}” will be removed for everyone in this conversation. This cannot be undone.</p>
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="modal-actions">
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="primary danger-button" data-autofocus disabled={busy} onClick={remove}>
            Delete
          </button>
        </div>
      </div>
    </Modal>
  );
}
