import { useCallback, useEffect, useRef, useState } from 'react';
import { failureText, type Conversation, type Message } from '../api/client';
import { chatOf } from '../stream/applyFrames';
import { FormError } from './FormError';
import { Modal } from './Modal';
import { MessageLinks } from './PinnedPanel';

/** One page of a list the server hands out a page at a time (`nextCursor` names the next). */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * A list read a page at a time: the first page at once, `load(cursor)` for the next, `load()` to start
 * again. One page at a time: a next page asked for while one is on its way is not asked again (a
 * double-click on "Show more" added the page twice), and a fresh start drops the answers of what it
 * started over from.
 */
export function usePagedList<T>(fetchPage: (cursor?: string) => Promise<ListPage<T>>) {
  const [items, setItems] = useState<T[]>();
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const inFlight = useRef(false);
  /** Whether pages after the first are shown. */
  const morePaged = useRef(false);
  const load = useCallback(
    (after?: string) => {
      if (after !== undefined && inFlight.current) return;
      const asked = ++latest.current;
      inFlight.current = true;
      setLoading(true);
      fetchPage(after)
        .then(
          (page) => {
            if (asked !== latest.current) return;
            setError(undefined);
            morePaged.current = after !== undefined;
            setItems((shown) => [...(after === undefined ? [] : (shown ?? [])), ...page.items]);
            setCursor(page.nextCursor);
          },
          (failure: unknown) => asked === latest.current && setError(failureText(failure)),
        )
        .finally(() => {
          if (asked !== latest.current) return;
          inFlight.current = false;
          setLoading(false);
        });
    },
    [fetchPage],
  );
  useEffect(() => load(), [load]);
  /**
   * The first page again, for what changed comes first. Shown alone when no more was shown; else in front
   * of the rest as it was (less what the first page now holds, by `keyOf`), so that the list stays as the
   * person paged it and is not cut back to its first page.
   */
  const refresh = useCallback(
    (keyOf: (item: T) => string) => {
      if (!morePaged.current) return load();
      const asked = latest.current;
      fetchPage().then(
        (page) => {
          if (asked !== latest.current) return;
          const fresh = new Set(page.items.map(keyOf));
          setItems((shown) => [...page.items, ...(shown ?? []).filter((item) => !fresh.has(keyOf(item)))]);
        },
        () => undefined,
      );
    },
    [fetchPage, load],
  );
  /** Takes what `gone` says is gone out of the list as shown, whichever page it came on. */
  const drop = useCallback((gone: (item: T) => boolean) => setItems((shown) => shown?.filter((item) => !gone(item))), []);
  return { items, cursor, error, loading, load, refresh, drop };
}

/** The chat a message is in, and "In #channel" or "In Name" for where the person knows it. */
export function placeOf(message: Message, me: string, conversations: Conversation[] | undefined): { chat: string; place: string } {
  const chat = chatOf(message, me);
  const where = conversations?.find((conversation) => conversation.chat === chat);
  return { chat, place: where ? `In ${where.kind === 'channel' ? '#' : ''}${where.name}` : '' };
}

/** A dialog listing messages, each a link that opens its chat at it, with "Show more" while pages are left. */
export function MessageListDialog({ title, list, entries, empty, label, onClose }: {
  title: string;
  list: { items: unknown[] | undefined; cursor: string | undefined; error: string | undefined; loading: boolean; load: (cursor?: string) => void };
  entries: Array<{ message: Message; chat: string; detail: string; path?: string }>;
  empty: string;
  label: string;
  onClose: () => void;
}) {
  return (
    <Modal title={title} onClose={onClose} className="pins-modal">
      <FormError text={list.error} />
      {list.items === undefined && !list.error ? <p className="page-message">Loading…</p> : <MessageLinks entries={entries} onOpen={onClose} empty={empty} label={label} />}
      {list.cursor !== undefined && (
        <div className="modal-actions">
          <button type="button" className="secondary" onClick={() => list.load(list.cursor)} disabled={list.loading} aria-busy={list.loading}>
            Show more
          </button>
        </div>
      )}
    </Modal>
  );
}
