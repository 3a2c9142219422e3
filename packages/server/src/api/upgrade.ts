import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { WebSocket, WebSocketServer } from 'ws';
import type { ServerContext } from '../context.js';
import { hashToken } from '../store/ids.js';
import type { UsersTable } from '../store/schema.js';
import { isStoreUnavailable } from '../store/store.js';
import { ApiError } from './errors.js';
import { rawApiErrorResponse } from './frameworkErrors.js';
import { tooManyRequests } from './methodRateLimits.js';
import { personOfSession } from './session/auth.js';
import { PERSONAL_TOKEN } from '../core/commands/personalTokens.js';
import { personOfPersonalToken } from '../core/queries/personalTokens.js';

/**
 * A WebSocket endpoint (the stream, a listen connection): where it is, who opens it, and its gateway.
 * Every endpoint is opened through one step (upgradeListener): GET only → the gateway accepts (not
 * draining) → authenticate → rate limit (the opener's bucket in the `read` class, as calls take theirs)
 * → the endpoint's own limit → upgrade; any refusal is the API's error shape and status, before a
 * WebSocket exists, with Retry-After on 429 and 503.
 */
export interface UpgradeEndpoint<Opener> {
  /** What it is, in refusals and logs: "the stream". */
  what: string;
  /** Whether a request's path is this endpoint's. */
  serves(pathname: string): boolean;
  gateway: { readonly isAccepting: boolean; readonly wss: WebSocketServer; open(webSocket: WebSocket, opener: Opener): void };
  /** Who opens it, from the request (headers, query): the opener, or a thrown ApiError. */
  authenticate(request: IncomingMessage, url: URL): Promise<Opener>;
  /** The opener's rate-limit bucket: who opens (a person, an app), never anything else the request says. */
  rateKey(opener: Opener): string;
  /** Throws TooManyRequests (with its Retry-After) when the opener may open no more. */
  limit?(opener: Opener): void;
}

/** An endpoint with its opener's type closed over: what the listener routes to. */
interface Served {
  what: string;
  serves(pathname: string): boolean;
  open(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void>;
}

/** The one step that opens an endpoint: GET → accepting → authenticate → rate limit → limit → upgrade. */
export function served<Opener>(ctx: ServerContext, endpoint: UpgradeEndpoint<Opener>): Served {
  const { what, gateway } = endpoint;
  return {
    what,
    serves: endpoint.serves,
    async open(request, socket, head, url) {
      if (request.method !== 'GET') throw new ApiError('HTTPMethodNotAllowed', `${what[0].toUpperCase()}${what.slice(1)} is opened with GET.`, {}, { allow: 'GET' });
      if (!gateway.isAccepting) throw new ApiError('ServiceUnavailable', 'The server is shutting down; reconnect shortly.', {}, { 'retry-after': '1' });
      const opener = await endpoint.authenticate(request, url);
      const rule = ctx.config.rateLimits.read;
      const decision = await ctx.rateLimits.take(`${endpoint.rateKey(opener)}:open`, rule);
      if (!decision.allowed) throw tooManyRequests(decision, `Opening ${what} is limited to ${rule.rate} per second.`);
      endpoint.limit?.(opener);
      gateway.wss.handleUpgrade(request, socket, head, (webSocket) => gateway.open(webSocket, opener));
    },
  };
}

/**
 * The HTTP server's one `upgrade` listener: each request goes to the endpoint that serves its path, or
 * is refused as NoSuchMethod (`elsewhere` says where to go instead).
 */
export function upgradeListener(ctx: ServerContext, endpoints: readonly Served[], elsewhere: string) {
  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = parseUrl(request.url ?? '/');
    const endpoint = endpoints.find((candidate) => candidate.serves(url.pathname));
    if (!endpoint) throw new ApiError('NoSuchMethod', `Nothing is served at ${url.pathname.slice(0, 200)} over WebSocket; ${elsewhere}.`);
    await endpoint.open(request, socket, head, url).catch((error: unknown) => Promise.reject(refusal(ctx, error, endpoint.what)));
  }

  return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => undefined);
    upgrade(request, socket, head).catch((error: unknown) => {
      if (socket.writable) socket.end(rawApiErrorResponse(refusal(ctx, error, 'a WebSocket')));
      else socket.destroy();
    });
  };
}

function parseUrl(target: string): URL {
  try {
    return new URL(target, 'http://upgrade.invalid');
  } catch {
    throw new ApiError('InvalidRequestData', 'The request target is not a valid URL.');
  }
}

/** What a failed opening answers: its ApiError, 503 while the store is down, else a logged 500. */
function refusal(ctx: ServerContext, error: unknown, what: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) return new ApiError('ServiceUnavailable', 'The database is unavailable; reconnect shortly.', {}, { 'retry-after': '5' });
  ctx.log.error({ err: error }, `unexpected error opening ${what}`);
  return new ApiError('InternalServerError', `An unexpected condition occurred while opening ${what}.`);
}

/** The origin an upgrade was addressed to: its scheme and Host header, as for calls (security/crossSite.ts). */
export function upgradeOrigin(request: IncomingMessage): string | undefined {
  const scheme = (request.socket as TLSSocket).encrypted ? 'https' : 'http';
  try {
    return request.headers.host === undefined ? undefined : new URL(`${scheme}://${request.headers.host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * The person of a session token or a personal token, resolved as for calls (NotSignedIn or InvalidToken
 * unless live), and the token's hash: the connection ends when that session or token does.
 */
export async function upgradeSession(ctx: ServerContext, token: string | undefined): Promise<{ person: UsersTable; sessionHash: string }> {
  const person = token !== undefined && PERSONAL_TOKEN.test(token) ? await personOfPersonalToken(ctx.db, token, ctx.now()) : await personOfSession(ctx, token);
  return { person, sessionHash: hashToken(token!) };
}
