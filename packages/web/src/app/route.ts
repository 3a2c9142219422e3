import { useEffect, useState } from 'react';

/**
 * The client's own paths: `/signin`, `/c/<chat>` (a conversation), `/apps` (the directory), `/dev` and
 * `/dev/<app>` (the developer dashboard), `/`. The
 * server answers index.html at each (packages/server/src/api/webClient.ts lists them).
 */
export type Route = { page: 'signin' } | { page: 'chat'; chat: string } | { page: 'apps' } | { page: 'dev'; app?: string } | { page: 'home' };

export function parseRoute(path: string): Route {
  if (path === '/signin') return { page: 'signin' };
  if (path === '/apps') return { page: 'apps' };
  if (path === '/dev') return { page: 'dev' };
  if (path.startsWith('/dev/')) {
    try {
      return { page: 'dev', app: decodeURIComponent(path.slice(5)) };
    } catch {
      return { page: 'dev' };
    }
  }
  if (path.startsWith('/c/')) {
    try {
      return { page: 'chat', chat: decodeURIComponent(path.slice(3)) };
    } catch {
      return { page: 'home' };
    }
  }
  return { page: 'home' };
}

export const chatPath = (chat: string) => `/c/${encodeURIComponent(chat)}`;
export const devAppPath = (app: string) => `/dev/${encodeURIComponent(app)}`;

export function navigate(path: string, replace = false): void {
  if (path === location.pathname) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}
