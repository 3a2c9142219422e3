import { webPageParam, webPagePath, webPages } from '@aviary/protocol';
import { useEffect, useState } from 'react';

/**
 * The client's own paths (the protocol's webPages): `/signin`, `/c/<chat>` (a conversation; `?m=<uid>` opens it
 * at a message, `?thread=<uid>` with that message's thread open beside it), `/apps` (the
 * directory), `/dev` and `/dev/<app>` (the developer dashboard), `/`; and the pages one reaches signed out:
 * `/invite/<token>`, `/forgot-password`, `/reset-password#<token>`, `/verify-email#<token>`. The server
 * answers index.html at each.
 */
/** A page one reaches signed out, or signed in alike: it shows whoever is (not) signed in. */
export type PublicRoute = { page: 'invite'; token: string } | { page: 'forgotPassword' } | { page: 'resetPassword' } | { page: 'verifyEmail' };

export type Route = PublicRoute | { page: 'signin' } | { page: 'chat'; chat: string; message?: string; thread?: string } | { page: 'apps' } | { page: 'dev'; app?: string } | { page: 'home' };

export function parseRoute(path: string): Route {
  if (path === webPages.signIn) return { page: 'signin' };
  const invite = webPageParam('invite', path);
  if (invite !== undefined) return { page: 'invite', token: invite ?? '' };
  if (path === webPages.forgotPassword) return { page: 'forgotPassword' };
  if (path === webPages.resetPassword) return { page: 'resetPassword' };
  if (path === webPages.verifyEmail) return { page: 'verifyEmail' };
  if (path === webPages.apps) return { page: 'apps' };
  if (path === webPages.dev) return { page: 'dev' };
  const app = webPageParam('devApp', path);
  if (app !== undefined) return app === null ? { page: 'dev' } : { page: 'dev', app };
  const chat = webPageParam('chat', path);
  if (chat !== undefined && chat !== null) return { page: 'chat', chat };
  return { page: 'home' };
}

export const isPublicRoute = (route: Route): route is PublicRoute => ['invite', 'forgotPassword', 'resetPassword', 'verifyEmail'].includes(route.page);

export const chatPath = (chat: string) => webPagePath('chat', chat);
/** A link to one message: its chat, opened at it and highlighted (`/c/<chat>?m=<uid>`). */
export const messagePath = (chat: string, uid: string) => conversationPath(chat, { message: uid });

/**
 * A conversation's path with what is open in it: the message it was opened at (`?m=`) and the thread
 * shown beside it (`?thread=`), so that a reload, and back and forward, keep both.
 */
export function conversationPath(chat: string, open: { message?: string | undefined; thread?: string | undefined }): string {
  const query = new URLSearchParams();
  if (open.message) query.set('m', open.message);
  if (open.thread) query.set('thread', open.thread);
  const search = query.toString();
  return search ? `${chatPath(chat)}?${search}` : chatPath(chat);
}

/** The route of the page's address, with the message a permalink names (`?m=`) and the open thread (`?thread=`). */
function currentRoute(): Route {
  const route = parseRoute(location.pathname);
  if (route.page !== 'chat') return route;
  const query = new URLSearchParams(location.search);
  const message = query.get('m');
  const thread = query.get('thread');
  return { ...route, ...(message ? { message } : {}), ...(thread ? { thread } : {}) };
}
export const devAppPath = (app: string) => webPagePath('devApp', app);

export function navigate(path: string, replace = false): void {
  if (path === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}
