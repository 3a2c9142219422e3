import type { PersonStatusModel } from '@aviary/protocol';
import './admin.css';

/** A person's status next to their name (its emoji and text), hidden once it has expired. */
export function StatusText({ status, now = Date.now() }: { status: PersonStatusModel | undefined; now?: number }) {
  if (!status || (status.expiresAt !== undefined && status.expiresAt <= now)) return null;
  return (
    <span className="status-text" title={status.text}>
      {status.emoji && <span aria-hidden="true">{status.emoji} </span>}
      <span className="visually-hidden">Status: </span>
      {status.text}
    </span>
  );
}
