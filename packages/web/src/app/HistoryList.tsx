import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { dayLabel } from './format';
import { MessageRow } from './MessageRow';
import { historyRows } from './rows';
import type { History } from './useHistory';
import type { Selection } from './useSelection';
import { useWorkspace } from './workspaceContext';
import { FormError } from './FormError';

/** Load the previous page when the first rendered row is this close to the top… */
const LOAD_AHEAD_ROWS = 8;
/** …and the view is scrolled this close to it (a view the rows do not fill is at 0). */
const LOAD_AHEAD_PX = 600;
/** Within this many pixels of the bottom, the list follows new messages. */
const STICK_TO_BOTTOM_PX = 80;

/**
 * The chat's history, virtualized: only the rows near the viewport are in the DOM, so a chat of any
 * length scrolls alike. It opens at the newest message, loads older pages as the person scrolls up
 * (keeping the row they were reading in place) and follows new messages while at the bottom.
 */
export function HistoryList({ history, chat, selection }: { history: History; chat: string; selection?: Selection | undefined }) {
  const { me } = useWorkspace();
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => historyRows(history.messages, me.timezone, !history.hasOlder), [history.messages, me.timezone, history.hasOlder]);
  const atBottom = useRef(true);
  const firstKey = useRef<string | undefined>(undefined);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.kind !== 'message' ? 44 : rows[index]?.kind === 'message' && rows[index].continued ? 28 : 64),
    getItemKey: (index) => rows[index]!.key,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();

  // Older rows were put in front: bring the row that was first back to where it was, not to the top.
  useLayoutEffect(() => {
    const previousFirst = firstKey.current;
    firstKey.current = rows[0]?.key;
    if (rows.length === 0) return;
    if (previousFirst === undefined || atBottom.current) {
      // Straight to the bottom, not scrollToIndex: that one aims with estimated heights, and a scroll
      // event on the way would read as the person leaving the bottom.
      atBottom.current = true;
      if (scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
      return;
    }
    const kept = rows.findIndex((row) => row.key === previousFirst);
    if (kept > 0) virtualizer.scrollToIndex(kept, { align: 'start' });
  }, [rows, virtualizer]);

  // Rows measured taller than estimated grow the list below the view: while at the bottom, stay there.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
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

  // The rows are those of the last render, whose scroll position may be stale: the first page renders
  // at the top before it is brought to the bottom. So the view itself must be near the top too (or the
  // rows must not fill it): opening a chat then asks for one page, unless the view needs more.
  const firstShown = items[0]?.index;
  useEffect(() => {
    const element = scroller.current;
    const nearTop = element !== null && element.scrollTop < LOAD_AHEAD_PX;
    if (nearTop && firstShown !== undefined && firstShown < LOAD_AHEAD_ROWS && history.hasOlder && !history.loading && rows.length > 0) history.loadOlder();
  }, [firstShown, history, rows.length]);

  const onScroll = () => {
    const element = scroller.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
  };

  return (
    <div ref={scroller} className="history" onScroll={onScroll} tabIndex={0} role="region" aria-label="Message history" data-chat={chat}>
      <FormError text={history.error} />
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
                  <span>{dayLabel(row.timestamp, me.timezone, Date.now())}</span>
                </div>
              ) : (
                <MessageRow
                  message={row.message}
                  continued={row.continued}
                  chat={chat}
                  selected={selection?.active ? selection.has(row.message.uid) : undefined}
                  onToggle={selection?.toggle}
                />
              )}
            </div>
          );
        })}
      </div>
      {rows.length === 0 && !history.loading && !history.error && <p className="history-empty">No messages yet. Say hello!</p>}
    </div>
  );
}
