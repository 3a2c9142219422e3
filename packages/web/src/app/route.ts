import { webPageParam, webPagePath, webPages } from '@aviary/protocol';
import { useEffect, useState } from 'react';

/**
 * The client's own paths (the protocol's webPages): `/signin`, `/c/<chat>` (a conversation), `/apps` (the
 * directory), `/dev` and `/dev/<app>` (the developer dashboard), `/`. The server answers index.html at each.
 */
export type Route = { page: 'signin' } | { page: 'chat'; chat: string } | { page: 'apps' } | { page: 'dev'; app?: string } | { page: 'home' };

export function parseRoute(path: string): Route {
  if (path === webPages.signIn) return { page: 'signin' };
  if (path === webPages.apps) return { page: 'apps' };
  if (path === webPages.dev) return { page: 'dev' };
  const app = webPageParam('devApp', path);
  if (app !== undefined) return app === null ? { page: 'dev' } : { page: 'dev', app };
  const chat = webPageParam('chat', path);
  if (chat !== undefined && chat !== null) return { page: 'chat', chat };
  return { page: 'home' };
}

export const chatPath = (chat: string) => webPagePath('chat', chat);
export const devAppPath = (app: string) => webPagePath('devApp', app);

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
