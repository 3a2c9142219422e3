import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../errors.js';
import { bearerToken } from '../session/sessionToken.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `Sec-Fetch-Site` values a browser sends for a request of the page's own origin, or typed by the person. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Refuses cross-site requests that would act with the person's session cookie (CSRF, login CSRF
 * included). It guards every route under /api/ that changes state (the session, client and developer
 * APIs) unless the request carries `Authorization: Bearer`, which a browser never adds on its own.
 *
 * - Origin: a browser names the page's origin on every request that changes state; it must be this
 *   server's own (`AVIARY_PUBLIC_URL`'s origin when set, else the request's scheme and Host). Without
 *   Origin, `Sec-Fetch-Site` must be same-origin or none. A client sending neither is not a browser.
 * - Body: only application/json, or no body. A page of another origin cannot send JSON to us without a
 *   CORS preflight, which this server never grants, so this holds even for browsers that send no Origin.
 *
 * The route is matched by its registered pattern, not by the raw URL, so no spelling of the path escapes.
 */
export function crossSiteGuard(config: Config): (request: FastifyRequest) => void {
  const refuse = refuseCrossSiteBody(config);
  return (request) => {
    if (!STATE_CHANGING.has(request.method) || !request.routeOptions.url?.startsWith('/api/')) return;
    if (bearerToken(request) !== undefined) return;
    refuse(request);
  };
}

/**
 * The guard of a `/v1` call made with the session cookie (api/callerOf.ts): a method may change state
 * whatever its verb, so only a POST of JSON from this server's own pages acts with the cookie. A GET could
 * be a link on another site.
 */
export function cookieCallGuard(config: Config): (request: FastifyRequest) => void {
  const refuse = refuseCrossSiteBody(config);
  return (request) => {
    if (request.method !== 'POST') {
      throw new ApiError('CrossSiteRequest', 'With the session cookie, call methods with POST and a JSON body, from this server’s own pages.');
    }
    refuse(request);
  };
}

/** Refuses a request of another origin, or one whose body is not JSON. */
function refuseCrossSiteBody(config: Config): (request: FastifyRequest) => void {
  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
  return (request) => {
    refuseForeignOrigin(request.headers, publicOrigin ?? requestOrigin(request));
    refuseNonJsonBody(request);
  };
}

/**
 * Refuses a request that a page of another origin made: its Origin is not `ownOrigin`, or without Origin,
 * its `Sec-Fetch-Site` is not same-origin or none. The stream's upgrade asks the same of cookie sessions.
 */
export function refuseForeignOrigin(headers: IncomingHttpHeaders, ownOrigin: string | undefined): void {
  const origin = headers.origin;
  if (origin !== undefined) {
    if (origin === ownOrigin) return;
    throw new ApiError(
      'CrossSiteRequest',
      `A page of ${JSON.stringify(origin.slice(0, 200))} may not act with this server's session; only pages of ${ownOrigin ?? 'this server'} may.`,
    );
  }
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(site)) {
    throw new ApiError('CrossSiteRequest', `The browser says this request comes from a ${JSON.stringify(site.slice(0, 40))} page; only this server's own pages may act with its session.`);
  }
}

function refuseNonJsonBody(request: FastifyRequest): void {
  const contentType = request.headers['content-type'];
  if (contentType === undefined) {
    if (hasBody(request)) throw new ApiError('InvalidRequestData', 'The body has no content type; send application/json.');
    return;
  }
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new ApiError('InvalidRequestData', `The content type ${JSON.stringify(mediaType.slice(0, 100))} is not accepted here; send application/json.`);
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The origin this request was addressed to, from its scheme and Host header; undefined if Host is not one. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}
