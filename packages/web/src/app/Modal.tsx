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
  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    element.showModal();
    // showModal focuses the first focusable element (the Close button); the dialog's first field is where to start.
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);
  return createPortal(
    // A form's submit inside stays inside: React would carry it on, through the portal, to a form the dialog was opened from (a composer's), sending that too.
    <dialog ref={dialog} className={`modal${className ? ` ${className}` : ''}`} aria-labelledby={titleId} onClose={onClose} onSubmit={(event) => event.stopPropagation()}>
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
