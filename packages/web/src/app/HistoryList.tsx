import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { dayLabel } from './format';
import { MessageRow } from './MessageRow';
import { historyRows } from './rows';
import type { History } from './useHistory';
import type { Selection } from './useSelection';
import { useWorkspace } from './workspaceContext';
import { FormError } from './FormError';

/** Load the previous page when the top of the history is this close to the view (pixels above it). */
const LOAD_AHEAD_PX = 600;
/** Within this many pixels of the bottom, the list follows new messages. */
const STICK_TO_BOTTOM_PX = 80;

/**
 * The chat's history, virtualized: only the rows near the viewport are in the DOM, so a chat of any
 * length scrolls alike. It opens at the newest message, loads older pages while the top of the history
 * is in (or near) the view, keeps what the person was reading in place when a page is put in front,
 * and follows new messages while at the bottom.
 */
export function HistoryList({ history, chat, selection, target }: { history: History; chat: string; selection?: Selection | undefined; target?: string | undefined }) {
  const { me } = useWorkspace();
  const scroller = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => historyRows(history.messages, me.timeZone, !history.hasOlder), [history.messages, me.timeZone, history.hasOlder]);
  const atBottom = useRef(true);
  /** The oldest message shown at the last render: when it changes, a page was put in front. */
  const oldestShown = useRef<string | undefined>(undefined);
  /** How far the top of the view was from the end of the list, at the last render or scroll. */
  const fromEnd = useRef(0);
  /**
   * While a page put in front is being measured, the distance from the end that the view keeps: rows
   * measured then change the list's height above the view. Until the person scrolls themselves.
   */
  const keptFromEnd = useRef<number | undefined>(undefined);
  const keepPlace = (element: HTMLDivElement) => {
    if (keptFromEnd.current !== undefined) element.scrollTop = element.scrollHeight - keptFromEnd.current;
  };

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.kind !== 'message' ? 44 : rows[index]?.kind === 'message' && rows[index].continued ? 28 : 64),
    getItemKey: (index) => rows[index]!.key,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();

  const remember = (element: HTMLDivElement) => {
    fromEnd.current = element.scrollHeight - element.scrollTop;
  };

  // Opening: straight to the bottom. Older messages put in front: everything the person saw keeps its
  // place, which is its distance from the end of the list, since nothing changed below it. (Not a row's
  // key: the first row is often a day separator that stays first while older messages of its day are
  // put under it.)
  useLayoutEffect(() => {
    const element = scroller.current;
    const previousOldest = oldestShown.current;
    oldestShown.current = history.messages[0]?.uid;
    if (!element || rows.length === 0) return;
    const targetIndex = previousOldest === undefined && target !== undefined ? rows.findIndex((row) => row.kind === 'message' && row.message.uid === target) : -1;
    if (targetIndex >= 0) {
      // Opened at a linked message: it is brought to the middle of the view (and stays there as rows are measured).
      atBottom.current = false;
      virtualizer.scrollToIndex(targetIndex, { align: 'center' });
      requestAnimationFrame(() => virtualizer.scrollToIndex(targetIndex, { align: 'center' }));
      remember(element);
      return;
    }
    if (previousOldest === undefined || atBottom.current) {
      // Straight to the bottom, not scrollToIndex: that one aims with estimated heights, and a scroll
      // event on the way would read as the person leaving the bottom.
      atBottom.current = true;
      keptFromEnd.current = undefined;
      element.scrollTop = element.scrollHeight;
    } else if (oldestShown.current !== previousOldest) {
      keptFromEnd.current = fromEnd.current;
    }
    keepPlace(element);
    remember(element);
  }, [rows, history.messages]);

  // Rows measured taller than estimated grow the list below the view: while at the bottom, stay there.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (atBottom.current) element.scrollTop = element.scrollHeight;
    else keepPlace(element);
    remember(element);
  }, [totalSize]);

  // The view itself shrinks too (the selection bar opens, the composer grows): at the bottom, stay there.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // The next page loads whenever the top of the history is near the view and there is more: when the
  // person scrolls up to it (the observer), and when a page arrives that does not push it away (the
  // load ending). Whether it is near is read from the layout at that moment, never from a scroll event.
  const [topSeen, setTopSeen] = useState(0);
  useEffect(() => {
    const element = scroller.current;
    if (!element || !top.current) return;
    const observer = new IntersectionObserver(() => setTopSeen((count) => count + 1), { root: element, rootMargin: `${LOAD_AHEAD_PX}px 0px 0px 0px` });
    observer.observe(top.current);
    return () => observer.disconnect();
  }, []);
  // The same at the bottom, only while the history opened at a linked message has newer pages to load:
  // otherwise nothing watches it, so that no render comes between a page put in front and its anchoring.
  // A page that failed is asked for again only when the person says so ("Try again"): the view near an end
  // would otherwise ask at once, and again on each failure, as fast as they come.
  const { hasOlder, loading, loadOlder, hasNewer, loadNewer, error } = history;
  const [bottomSeen, setBottomSeen] = useState(0);
  useEffect(() => {
    const element = scroller.current;
    if (!hasNewer || !element || !bottom.current) return;
    const observer = new IntersectionObserver(() => setBottomSeen((count) => count + 1), { root: element, rootMargin: `0px 0px ${LOAD_AHEAD_PX}px 0px` });
    observer.observe(bottom.current);
    return () => observer.disconnect();
  }, [hasNewer]);
  useEffect(() => {
    const element = scroller.current;
    if (!element || !bottom.current || !hasNewer || loading || error || rows.length === 0) return;
    if (bottom.current.getBoundingClientRect().top <= element.getBoundingClientRect().bottom + LOAD_AHEAD_PX) loadNewer();
  }, [bottomSeen, hasNewer, loading, error, loadNewer, rows.length]);
  useEffect(() => {
    const element = scroller.current;
    if (!element || !top.current || !hasOlder || loading || error || rows.length === 0) return;
    if (top.current.getBoundingClientRect().bottom >= element.getBoundingClientRect().top - LOAD_AHEAD_PX) loadOlder();
  }, [topSeen, hasOlder, loading, error, loadOlder, rows.length]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    // A scroll that moved the view from the kept place is the person's: the place is theirs again.
    if (keptFromEnd.current !== undefined && Math.abs(element.scrollHeight - element.scrollTop - keptFromEnd.current) > 1) keptFromEnd.current = undefined;
    remember(element);
  };

  return (
    <div ref={scroller} className="history" onScroll={onScroll} tabIndex={0} role="region" aria-label="Message history" data-chat={chat}>
      <div ref={top} className="history-top" />
      {history.error && (
        <div className="history-failed">
          <FormError text={history.error} />
          <button type="button" className="secondary" onClick={history.retry}>
            Try again
          </button>
        </div>
      )}
      <div role="list" aria-busy={history.loading} className="history-rows" style={{ height: totalSize }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={item.key}
              role="listitem"
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="history-row"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row.kind === 'start' ? (
                <p className="history-start">This is the very beginning of the conversation.</p>
              ) : row.kind === 'day' ? (
                <div className="day-separator">
                  <span>{dayLabel(row.timestamp, me.timeZone, Date.now())}</span>
                </div>
              ) : (
                <MessageRow
                  message={row.message}
                  continued={row.continued}
                  chat={chat}
                  highlighted={row.message.uid === target}
                  selected={selection?.active ? selection.has(row.message.uid) : undefined}
                  onToggle={selection?.toggle}
                />
              )}
            </div>
          );
        })}
      </div>
      <div ref={bottom} className="history-bottom" />
      {rows.length === 0 && !history.loading && !history.error && <p className="history-empty">No messages yet. Say hello!</p>}
    </div>
  );
}
