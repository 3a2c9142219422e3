import { useCallback, useEffect, useState, type RefObject } from 'react';

/** Scrolled up more than this far from the newest message, the person is offered "Jump to newest". */
const AWAY_FROM_NEWEST_PX = 400;
/** A jump follows the rows while their measured heights settle: until three frames alike, this many at most. */
const JUMP_FRAMES = 30;

/**
 * The history's scroll position as seen from outside the list (the conversation holds it): whether the
 * person is far from the newest message, and a jump there, which keeps going to the end for a few frames
 * while rows are measured, so that it lands on the newest message however their heights change.
 */
export function useJumpToNewest(section: RefObject<HTMLElement | null>): { away: boolean; jump(): void } {
  const [away, setAway] = useState(false);
  const scroller = useCallback(() => section.current?.querySelector<HTMLElement>('.history') ?? null, [section]);

  // Heard on the section (scroll does not bubble, but is captured on its way): the history's element is
  // made anew when the chat opens at a link or reloads after a gap, and a listener on the first one was
  // left on an element no longer shown, so that the offer stopped following the person's scrolling.
  useEffect(() => {
    const root = section.current;
    if (!root) return;
    const onScroll = (event: Event) => {
      const element = event.target;
      if (!(element instanceof HTMLElement) || !element.classList.contains('history')) return;
      setAway(element.scrollHeight - element.scrollTop - element.clientHeight > AWAY_FROM_NEWEST_PX);
    };
    root.addEventListener('scroll', onScroll, { capture: true, passive: true });
    return () => root.removeEventListener('scroll', onScroll, { capture: true });
  }, [section]);

  const jump = useCallback(() => {
    let frames = 0;
    let steady = 0;
    let reached: number | undefined;
    const step = () => {
      const element = scroller();
      if (!element) return;
      // Moved up since the last step: the person scrolls on their own, and the jump gives way.
      if (reached !== undefined && element.scrollTop < reached - 2) return;
      const height = element.scrollHeight;
      element.scrollTop = height;
      reached = element.scrollTop;
      steady = element.scrollHeight === height ? steady + 1 : 0;
      if (steady < 3 && ++frames < JUMP_FRAMES) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }, [scroller]);

  return { away, jump };
}
