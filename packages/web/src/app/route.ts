import { useEffect, useState } from 'react';

/**
 * The client's own paths: `/signin`, `/c/<chat>` (a conversation), `/apps` (the directory), `/dev` and
 * `/dev/<app>` (the developer dashboard), `/`; and the pages one reaches signed out: `/invite/<token>`,
 * `/forgot-password`, `/reset-password#<token>`, `/verify-email#<token>`. The
 * server answers index.html at each (packages/server/src/api/webClient.ts lists them).
 */
/** A page one reaches signed out, or signed in alike: it shows whoever is (not) signed in. */
export type PublicRoute = { page: 'invite'; token: string } | { page: 'forgotPassword' } | { page: 'resetPassword' } | { page: 'verifyEmail' };

export type Route = PublicRoute | { page: 'signin' } | { page: 'chat'; chat: string } | { page: 'apps' } | { page: 'dev'; app?: string } | { page: 'home' };

export function parseRoute(path: string): Route {
  if (path === '/signin') return { page: 'signin' };
  if (path.startsWith('/invite/')) return { page: 'invite', token: path.slice(8) };
  if (path === '/forgot-password') return { page: 'forgotPassword' };
  if (path === '/reset-password') return { page: 'resetPassword' };
  if (path === '/verify-email') return { page: 'verifyEmail' };
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

export const isPublicRoute = (route: Route): route is PublicRoute => ['invite', 'forgotPassword', 'resetPassword', 'verifyEmail'].includes(route.page);

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
