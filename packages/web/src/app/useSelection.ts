import { useCallback, useMemo, useRef, useState } from 'react';

/** At most this many messages go into one message action (the server's limit, docs/reference/widgets.md). */
export const MAX_SELECTED = 100;

/** The messages picked for a message action; `active` while the person is picking (checkboxes shown). */
export interface Selection {
  active: boolean;
  uids: string[];
  has(uid: string): boolean;
  /** Picks or unpicks one message (turning picking on); with `range`, every message from the last one toggled to this one takes its new state. */
  toggle(uid: string, range: boolean): void;
  clear(): void;
}

/** `order` is the chat's messages' uids, oldest first: a range and the uids sent follow it. */
export function useSelection(order: readonly string[]): Selection {
  const [active, setActive] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | undefined>(undefined);
  const orderRef = useRef(order);
  orderRef.current = order;

  const clear = useCallback(() => {
    anchor.current = undefined;
    setPicked(new Set());
    setActive(false);
  }, []);
  const toggle = useCallback((uid: string, range: boolean) => {
    // The span is read now: the state updater runs later, after the anchor has moved.
    const order = orderRef.current;
    const from = range && anchor.current !== undefined ? order.indexOf(anchor.current) : -1;
    const to = order.indexOf(uid);
    const span = from >= 0 && to >= 0 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [uid];
    anchor.current = uid;
    setPicked((current) => {
      const next = new Set(current);
      const on = !current.has(uid);
      for (const each of span) {
        if (on) next.add(each);
        else next.delete(each);
      }
      return next;
    });
    setActive(true);
  }, []);

  const uids = useMemo(() => order.filter((uid) => picked.has(uid)), [order, picked]);
  return useMemo(() => ({ active, uids, has: (uid: string) => picked.has(uid), toggle, clear }), [active, uids, picked, toggle, clear]);
}
