/**
 * The web client's pages, by name: the server answers its index.html at each (server api/webClient.ts),
 * and the client routes among them (web app/route.ts). `:chat`, `:app` and `:token` are a page's one parameter.
 */
export const webPages = {
  home: '/',
  signIn: '/signin',
  chat: '/c/:chat',
  apps: '/apps',
  dev: '/dev',
  devApp: '/dev/:app',
  // Reached from a link, signed out (the token of the last three after `#`, never sent to the server).
  invite: '/invite/:token',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
} as const;

type PageWithParam = 'chat' | 'devApp' | 'invite';

const prefixOf = (page: PageWithParam): string => webPages[page].replace(/:\w+$/, '');

/** The path of a page with its parameter: `webPagePath('chat', 'g:…')` is `/c/g%3A…`. */
export const webPagePath = (page: PageWithParam, value: string): string => prefixOf(page) + encodeURIComponent(value);

/**
 * The parameter of `path` as `page`'s, decoded: undefined when the path is not that page, null when it
 * is but its parameter does not decode (a stray `%`).
 */
export function webPageParam(page: PageWithParam, path: string): string | null | undefined {
  const prefix = prefixOf(page);
  if (!path.startsWith(prefix)) return undefined;
  try {
    return decodeURIComponent(path.slice(prefix.length));
  } catch {
    return null;
  }
}
