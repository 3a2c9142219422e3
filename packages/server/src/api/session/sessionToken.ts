import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';

export const SESSION_COOKIE = 'aviary_session';

/** Session tokens are 48 characters; anything much longer is not one and is not hashed or looked up. */
const MAX_SESSION_TOKEN_LENGTH = 256;

/**
 * The token of `Authorization: Bearer <token>`, if the request has one: a session token here, a method
 * token on /v1. Its length is for the caller to judge (headers are bounded by the server's header limit).
 */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = request.headers.authorization;
  return header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/**
 * The session token from `Authorization: Bearer` or, without one, the session cookie. A value that is too
 * long or cannot be decoded (a stray `%`) is no session at all: the caller answers NotSignedIn.
 */
export function sessionToken(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const token = bearerToken(request) ?? requestCookie(request, SESSION_COOKIE);
  return token !== undefined && token.length <= MAX_SESSION_TOKEN_LENGTH ? token : undefined;
}

/** The session cookie's token, if the request carries the cookie. */
export const cookieToken = (request: Pick<FastifyRequest, 'headers'>): string | undefined => requestCookie(request, SESSION_COOKIE);

/** The value of the request's cookie `wanted`, decoded; undefined when absent or not decodable. */
export function requestCookie(request: Pick<FastifyRequest, 'headers'>, wanted: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== wanted) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The Set-Cookie value for a session: never readable by scripts (HttpOnly), not sent with cross-site
 * subrequests or form posts (SameSite=Lax), and only over TLS (Secure) when the server's public URL is https.
 * An empty token with Max-Age=0 clears the cookie.
 */
export function sessionCookie(config: Config, token: string): string {
  return cookie(config, SESSION_COOKIE, token, ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(token === '' ? ['Max-Age=0'] : [])]);
}

/** A Set-Cookie value, Secure when the server's public URL is https. */
export function cookie(config: Config, name: string, value: string, attributes: string[]): string {
  const secure = config.publicUrl?.toLowerCase().startsWith('https:') ? ['Secure'] : [];
  return [`${name}=${encodeURIComponent(value)}`, ...attributes, ...secure].join('; ');
}
