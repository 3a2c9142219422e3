import { useEffect, useState } from 'react';

/** Where the sidebar stops being a column and slides over the conversation (styles.css). */
const NARROW = '(max-width: 720px)';

/**
 * The sidebar on a narrow screen (a phone, or a desktop browser zoomed in): while it is slid away it is
 * inert, so Tab and screen readers skip it; opened, it takes the focus, and Escape or a tap beside it
 * closes it and gives the focus back to the ☰ button.
 */
export function useSlidingSidebar(open: boolean, close: () => void): void {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const changed = () => setNarrow(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  useEffect(() => {
    const sidebar = document.querySelector<HTMLElement>('.workspace > .sidebar');
    if (!sidebar) return;
    sidebar.toggleAttribute('inert', narrow && !open);
    if (!narrow || !open) return;
    sidebar.querySelector<HTMLElement>('a[href], button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      close();
      document.querySelector<HTMLElement>('.menu-button')?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [narrow, open, close]);
}
