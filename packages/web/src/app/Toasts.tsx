import { useCallback, useMemo, useRef, useState } from 'react';

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

export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          <span className="toast-text">{toast.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => onDismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
