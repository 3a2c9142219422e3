import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What any HTML page this server serves may do: load its own scripts, styles, images and fonts, call its
 * own API, and nothing else: no inline script, no plugins, no <base> rewriting, forms post only here, and
 * no other site may frame it (clickjacking).
 */
export const HTML_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers every response gets, errors included:
 * - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` everywhere;
 * - `Cache-Control: no-store` on everything under /api/ and /v1/: sessions, app secrets, bot tokens and
 *   signed widget URLs travel there, and no cache between the server and the person should keep them.
 *   Elsewhere too, unless the route chose its own caching (/widget.js, which holds no secret);
 * - on any text/html answer, the strict Content-Security-Policy above (unless the route set its own)
 *   and `X-Frame-Options: DENY` for browsers that do not know frame-ancestors (unless the route set its
 *   own: html attachments, which the web client frames, say SAMEORIGIN).
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  if (isApiPath(request.url) || isApiPath(request.routeOptions.url ?? '') || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  const contentType = reply.getHeader('content-type');
  if (typeof contentType === 'string' && contentType.toLowerCase().startsWith('text/html')) {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', HTML_CONTENT_SECURITY_POLICY);
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
  }
}

export const isApiPath = (path: string): boolean => path.startsWith('/api/') || path.startsWith('/v1/');
