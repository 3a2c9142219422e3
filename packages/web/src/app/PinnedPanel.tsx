import { useEffect, useState } from 'react';
import { failureText, methods, type Message } from '../api/client';
import { FormError } from './FormError';
import { dayLabel, formatFullTime, formatTime } from './format';
import { MessagePreview } from './MessageText';
import { Modal } from './Modal';
import { messagePath, navigate } from './route';
import type { SavedItems } from './savedItems';
import type { Workspace } from './workspaceContext';
import { useWorkspace } from './workspaceContext';
import './pins.css';

/** The "…" menu's pin, save and link items for a message of the open chat (a deleted one is not saved: nothing of it is left to keep). */
export function pinItems(message: Message, chat: string, saved: SavedItems, workspace: Workspace, mayPin: boolean): Array<{ label: string; run: () => void }> {
  const { toast } = workspace;
  const fail = (error: unknown) => toast(failureText(error), 'error');
  const pin = message.pinned
    ? { label: 'Unpin', run: () => void methods.pins.remove({ messageUid: message.uid }).catch(fail) }
    : { label: 'Pin to conversation', run: () => void methods.pins.add({ messageUid: message.uid }).catch(fail) };
  const save = saved.has(message.uid)
    ? { label: 'Remove from saved', run: () => void saved.unsave(message.uid).then(() => toast('Removed from saved items'), fail) }
    : { label: 'Save', run: () => void saved.save(message.uid).then(() => toast('Saved')).catch(fail) };
  return [
    ...(mayPin ? [pin] : []),
    ...(message.deletedAt === undefined ? [save] : []),
    { label: 'Copy link', run: () => void copyLink(chat, message.uid, toast) },
  ];
}

async function copyLink(chat: string, uid: string, toast: Workspace['toast']): Promise<void> {
  const link = `${location.origin}${messagePath(chat, uid)}`;
  try {
    await navigator.clipboard.writeText(link);
    toast('Link copied');
  } catch {
    toast(`Copy this link: ${link}`);
  }
}

/** "Today 9:30 AM", "Monday 4:12 PM", "March 3 10:00 AM": when, in a list's few words. */
export const shortTime = (timestamp: number, timezone: string): string => `${dayLabel(timestamp, timezone, Date.now())} ${formatTime(timestamp, timezone)}`;

/** Above a pinned message: that it is pinned, and by whom. */
export function PinnedMarker({ by }: { by: string }) {
  const workspace = useWorkspace();
  const who = by === workspace.me.id ? 'you' : (workspace.nameOf(by) ?? 'someone');
  return (
    <span className="pinned-marker">
      <span aria-hidden="true">📌</span> Pinned by {who}
    </span>
  );
}

/** A list of messages to open: each shows its sender, time and text, and opens its chat at it (or at `path`). */
export function MessageLinks({ entries, onOpen, empty, label }: {
  entries: Array<{ message: Message; chat: string; detail: string; path?: string }>;
  onOpen: () => void;
  empty: string;
  label: string;
}) {
  const workspace = useWorkspace();
  if (entries.length === 0) return <p className="page-message">{empty}</p>;
  return (
    <ul className="modal-list message-links" aria-label={label}>
      {entries.map(({ message, chat, detail, path = messagePath(chat, message.uid) }) => (
        <li key={message.uid}>
          <a
            className="message-link"
            href={path}
            onClick={(event) => {
              event.preventDefault();
              onOpen();
              navigate(path);
            }}
          >
            <span className="message-link-head">
              <strong>{message.sendAs?.name ?? workspace.nameOf(message.from) ?? 'Someone'}</strong>
              <time dateTime={new Date(message.timestamp).toISOString()} title={formatFullTime(message.timestamp, workspace.me.timeZone)}>
                {shortTime(message.timestamp, workspace.me.timeZone)}
              </time>
            </span>
            <span className="message-link-text">{message.text ? <MessagePreview message={message} /> : 'A message without text'}</span>
            <span className="message-link-detail">{detail}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The chat's pinned messages (pins.list), the most recently pinned first; a pin or unpin elsewhere shows on reopening. */
export function PinnedDialog({ chat, name, onClose }: { chat: string; name: string; onClose: () => void }) {
  const workspace = useWorkspace();
  const [pins, setPins] = useState<Awaited<ReturnType<typeof methods.pins.list>>['pins']>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    methods.pins.list({ chat }).then(({ pins: found }) => setPins(found), (failure: unknown) => setError(failureText(failure)));
  }, [chat]);
  const entries = (pins ?? []).map(({ message, pinned }) => ({
    message,
    chat,
    detail: `Pinned by ${pinned.by === workspace.me.id ? 'you' : (workspace.nameOf(pinned.by) ?? 'someone')}, ${shortTime(pinned.at, workspace.me.timeZone)}`,
  }));
  return (
    <Modal title={`Pinned in ${name}`} onClose={onClose} className="pins-modal">
      <FormError text={error} />
      {pins === undefined && !error ? <p className="page-message">Loading…</p> : <MessageLinks entries={entries} onOpen={onClose} empty="Nothing is pinned here yet. Pin a message from its … menu." label="Pinned messages" />}
    </Modal>
  );
}
