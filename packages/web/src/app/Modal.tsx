import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog: the native <dialog> opened with showModal(), which keeps focus inside it (the rest of
 * the page is inert), closes on Escape and returns focus to where it was. Labelled by its heading.
 */
export function Modal({ title, onClose, children, className }: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog ref={dialog} className={`modal${className ? ` ${className}` : ''}`} aria-labelledby={titleId} onClose={onClose}>
      <header className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
