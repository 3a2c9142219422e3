import { useState } from 'react';
import { failureText, methods } from '../../api/client';
import { formatFullTime } from '../format';
import { FormError } from '../FormError';
import { Modal } from '../Modal';
import { useWorkspace } from '../workspaceContext';
import type { Scheduled } from './useScheduled';
import './schedule.css';

/** Above the composer, while the person has messages scheduled in the chat: how many, opening their list. */
export function ScheduledBar({ items, reload }: { items: Scheduled[]; reload: () => void }) {
  const [open, setOpen] = useState(false);
  if (items.length === 0 && !open) return null;
  const failed = items.filter((item) => item.status === 'failed').length;
  return (
    <div className="scheduled-bar">
      <button type="button" className="quiet" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <span aria-hidden="true">🕘 </span>
        {items.length === 1 ? '1 scheduled message' : `${items.length} scheduled messages`}
        {failed > 0 && <span className="scheduled-failed"> · {failed} not sent</span>}
      </button>
      {open && <ScheduledDialog items={items} reload={reload} onClose={() => setOpen(false)} />}
    </div>
  );
}

/** The chat's scheduled messages: when each goes (or why it did not), each to cancel (or, failed, to clear). */
function ScheduledDialog({ items, reload, onClose }: { items: Scheduled[]; reload: () => void; onClose: () => void }) {
  const zone = useWorkspace().me.timeZone;
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const remove = async (item: Scheduled) => {
    setBusy(item.id);
    setError(undefined);
    try {
      await methods.chat.deleteScheduledMessage({ id: item.id });
    } catch (failure) {
      setError(failureText(failure));
    }
    setBusy(undefined);
    reload();
  };
  return (
    <Modal title="Scheduled messages" onClose={onClose} className="scheduled-dialog">
      <div className="modal-form">
        {items.length === 0 ? (
          <p>Nothing is scheduled in this conversation.</p>
        ) : (
          <ul className="scheduled-list">
            {items.map((item) => {
              const failed = item.status === 'failed';
              const action = failed ? 'Clear' : 'Cancel';
              return (
                <li key={item.id}>
                  <p className="scheduled-text">{item.text}</p>
                  {item.files && <p className="scheduled-files">📎 {item.files.length === 1 ? '1 file' : `${item.files.length} files`}</p>}
                  <p className={failed ? 'scheduled-when scheduled-failed' : 'scheduled-when'}>
                    {failed ? `Not sent at ${formatFullTime(item.sendAt, zone)}: ${item.error?.description ?? 'the server refused it'}` : `Sends ${formatFullTime(item.sendAt, zone)}`}
                  </p>
                  <button type="button" className="secondary" disabled={busy === item.id} onClick={() => void remove(item)} aria-label={`${action} “${item.text.slice(0, 40)}”`}>
                    {action}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <FormError text={error} />
      </div>
    </Modal>
  );
}
