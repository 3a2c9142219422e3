import { useEffect } from 'react';
import type { Conversation } from '../../api/client';
import type { UnreadTotals } from '../workspaceContext';
import { badgedIcon } from './rules';

const BASE_TITLE = 'Aviary';
const PLAIN_ICON = '/assets/favicon.svg';

/** The unread messages, and those mentioning the person, of every conversation, as the sidebar counts them. */
export function unreadTotalsOf(conversations: Conversation[] | undefined): UnreadTotals {
  return {
    unread: conversations?.reduce((sum, conversation) => sum + (conversation.unread ?? 0), 0) ?? 0,
    mentions: conversations?.reduce((sum, conversation) => sum + (conversation.mentions ?? 0), 0) ?? 0,
  };
}

/** The unread count in the tab's title ("(3) Aviary") and on its favicon, from the sidebar's counts. */
export function useTabBadge(conversations: Conversation[] | undefined): void {
  const { unread, mentions } = unreadTotalsOf(conversations);
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
