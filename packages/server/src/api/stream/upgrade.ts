import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { streamCursorPattern } from '@aviary/protocol';
import type { ServerContext } from '../../context.js';
import { sessionUser } from '../../core/commands/sessions.js';
import { redeemStreamTicket } from '../../core/commands/streamTickets.js';
import { hashToken } from '../../store/ids.js';
import { isStoreUnavailable } from '../../store/store.js';
import { ApiError, invalidParameter } from '../errors.js';
import { rawApiErrorResponse } from '../frameworkErrors.js';
import { refuseForeignOrigin } from '../security/crossSite.js';
import { bearerToken, sessionToken } from '../session/sessionToken.js';
import type { StreamGateway, StreamOpener } from './gateway.js';

export const STREAM_PATH = '/api/stream';

/**
 * The HTTP server's `upgrade` listener: `GET /api/stream` becomes a WebSocket for the person it
 * authenticates, anything else is refused with the API's error shape (before any WebSocket exists).
 *
 * Who: `?ticket=` (POST /api/client/stream/ticket), or the session as the client API takes it — a
 * session token as `Authorization: Bearer`, or the session cookie, which a page of another site could
 * make a browser send: with the cookie, the Origin must be this server's, as for the client API's changes.
 * `?cursor=` resumes after that position.
 */
export function streamUpgradeListener(ctx: ServerContext, gateway: StreamGateway) {
  const publicOrigin = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).origin : undefined;

  async function authenticate(request: IncomingMessage, query: URLSearchParams): Promise<StreamOpener> {
    const cursor = query.get('cursor') ?? '';
    if (cursor !== '' && !streamCursorPattern.test(cursor)) {
      throw invalidParameter('cursor', 'cursor must be the digits of a cursor the stream sent; leave it out to start afresh.');
    }
    const opener = await whoOpens(request, query);
    return cursor === '' ? opener : { ...opener, cursor: Number(cursor) };
  }

  async function whoOpens(request: IncomingMessage, query: URLSearchParams): Promise<Omit<StreamOpener, 'cursor'>> {
    const ticket = query.get('ticket');
    if (ticket !== null) {
      const redeemed = await redeemStreamTicket(ctx.db, ticket, ctx.now());
      if (!redeemed) throw new ApiError('NotSignedIn', 'The stream ticket is unknown, used or expired; ask POST /api/client/stream/ticket for a new one.');
      return redeemed;
    }
    if (bearerToken(request) === undefined) refuseForeignOrigin(request.headers, publicOrigin ?? requestOrigin(request));
    const token = sessionToken(request);
    const person = token === undefined ? undefined : await sessionUser(ctx.db, token, ctx.now());
    if (!person || token === undefined) throw new ApiError('NotSignedIn');
    return { person, sessionHash: hashToken(token) };
  }

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = parseUrl(request.url ?? '/');
    if (url.pathname !== STREAM_PATH) {
      throw new ApiError('NoSuchMethod', `Nothing is served at ${url.pathname.slice(0, 200)} over WebSocket; the stream is at ${STREAM_PATH}.`);
    }
    if (request.method !== 'GET') throw new ApiError('HTTPMethodNotAllowed', `The stream is opened with GET ${STREAM_PATH}.`, {}, { allow: 'GET' });
    if (!gateway.isAccepting) throw new ApiError('ServiceUnavailable', 'The server is shutting down; reconnect shortly.', {}, { 'retry-after': '1' });
    const opener = await authenticate(request, url.searchParams);
    const limit = ctx.config.stream.maxConnectionsPerPerson;
    if (gateway.connectionsOf(opener.person.id) >= limit) {
      throw new ApiError('TooManyRequests', `You have ${limit} streams open on this server already; close one first.`, { retryAfter: 5 }, { 'retry-after': '5' });
    }
    gateway.wss.handleUpgrade(request, socket, head, (webSocket) => gateway.open(webSocket, opener));
  }

  return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => undefined);
    upgrade(request, socket, head).catch((error: unknown) => {
      if (socket.writable) socket.end(rawApiErrorResponse(refusal(ctx, error)));
      else socket.destroy();
    });
  };
}

function parseUrl(target: string): URL {
  try {
    return new URL(target, 'http://stream.invalid');
  } catch {
    throw new ApiError('InvalidRequestData', 'The request target is not a valid URL.');
  }
}

function refusal(ctx: ServerContext, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) return new ApiError('ServiceUnavailable', 'The database is unavailable; reconnect shortly.', {}, { 'retry-after': '5' });
  ctx.log.error({ err: error }, 'unexpected error opening a stream');
  return new ApiError('InternalServerError', 'An unexpected condition occurred while opening the stream.');
}

/** The origin the upgrade was addressed to: its scheme and Host header, as for the client API. */
function requestOrigin(request: IncomingMessage): string | undefined {
  const scheme = (request.socket as TLSSocket).encrypted ? 'https' : 'http';
  try {
    return request.headers.host === undefined ? undefined : new URL(`${scheme}://${request.headers.host}`).origin;
  } catch {
    return undefined;
  }
}
