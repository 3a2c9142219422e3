import { useEffect } from 'react';
import type { Conversation } from '../../api/client';

const BASE_TITLE = 'Aviary';
const PLAIN_ICON = '/assets/favicon.svg';

/** The favicon with a count on it, as an SVG data URL (red when something mentions the person). */
export function badgedIcon(count: number, mention: boolean): string {
  const label = count > 99 ? '99+' : String(count);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3346d3"/>` +
    `<path d="M9 23 16 8l7 15h-4l-3-7-3 7z" fill="#fff"/><circle cx="23" cy="9" r="9" fill="${mention ? '#c92a2a' : '#e8590c'}"/>` +
    `<text x="23" y="13" font-family="Arial,sans-serif" font-size="${label.length > 2 ? 8 : 11}" font-weight="700" fill="#fff" text-anchor="middle">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The unread count in the tab's title ("(3) Aviary") and on its favicon, from the sidebar's counts. */
export function useTabBadge(conversations: Conversation[] | undefined): void {
  const unread = conversations?.reduce((sum, conversation) => sum + (conversation.unread ?? 0), 0) ?? 0;
  const mentions = conversations?.reduce((sum, conversation) => sum + (conversation.mentions ?? 0), 0) ?? 0;
  useEffect(() => {
    document.title = unread > 0 ? `(${unread > 999 ? '999+' : unread}) ${BASE_TITLE}` : BASE_TITLE;
    let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!icon) {
      icon = document.createElement('link');
      icon.rel = 'icon';
      document.head.append(icon);
    }
    icon.type = 'image/svg+xml';
    icon.href = unread > 0 ? badgedIcon(unread, mentions > 0) : PLAIN_ICON;
  }, [unread, mentions]);
  useEffect(
    () => () => {
      document.title = BASE_TITLE;
      document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.setAttribute('href', PLAIN_ICON);
    },
    [],
  );
}
