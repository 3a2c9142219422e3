import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * A modal dialog: the native <dialog> opened with showModal(), which keeps focus inside it (the rest of
 * the page is inert), closes on Escape and returns focus to where it was. Labelled by its heading; the
 * element marked data-autofocus gets the focus. It is drawn at the end of the page's body, whoever opens
 * it: outside a composer's form (Enter in its fields submits only its own), and outside a history row,
 * which may scroll away. A form's submit in it goes no further than the dialog.
 */
export function Modal({ title, onClose, children, className }: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Where the focus was when it opened (read before the dialog is shown).
  const opener = useRef(document.activeElement);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) {
      element.showModal();
      // showModal focuses the first focusable element (the Close button); the dialog's first field is where to start.
      element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    // Closed by being taken away (a Cancel) rather than by close(): the focus goes back, as close() does.
    return () => {
      const back = opener.current;
      const active = document.activeElement;
      if (back instanceof HTMLElement && back.isConnected && (active === null || active === document.body || element.contains(active))) back.focus();
    };
  }, []);
  return createPortal(
    // A form's submit inside stays inside: React would carry it on, through the portal, to a form the dialog was opened from (a composer's), sending that too.
    <dialog ref={dialog} className={`modal${className ? ` ${className}` : ''}`} aria-labelledby={titleId} onClose={(event) => {
        // A dialog opened from this one closing is not this one closing: React carries its event up here.
        event.stopPropagation();
        if (event.target === event.currentTarget) onClose();
      }} onSubmit={(event) => event.stopPropagation()}>
      <header className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </header>
      {children}
    </dialog>,
    document.body,
  );
}
