import { useCallback, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

/** How long a toast stays before it goes by itself; it can be dismissed earlier. */
const TOAST_LIFETIME_MS = 6000;

export function useToasts() {
  const [list, setList] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setList((toasts) => toasts.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (text: string, tone: 'info' | 'error' = 'info') => {
      const id = nextId.current++;
      setList((toasts) => [...toasts.slice(-3), { id, text, tone }]);
      setTimeout(() => dismiss(id), TOAST_LIFETIME_MS);
    },
    [dismiss],
  );
  return useMemo(() => ({ list, show, dismiss }), [list, show, dismiss]);
}

/**
 * The toasts, at the top right. While a modal dialog is open (the admin console, Invite people), they are
 * drawn inside it: the dialog's top layer would cover the page's toasts and make them inert, and the
 * toast is often the only word that its action worked ("An invitation was mailed to…").
 */
export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  const dialogs = toasts.length > 0 ? [...document.querySelectorAll<HTMLDialogElement>('dialog[open]')].filter((dialog) => dialog.matches(':modal')) : [];
  return createPortal(
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          <span className="toast-text">{toast.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => onDismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>,
    dialogs.at(-1) ?? document.body,
  );
}
