import type { IncomingMessage } from 'node:http';
import { streamCursorPattern, streamPath } from '@aviary/protocol';
import type { ServerContext } from '../../context.js';
import { redeemStreamTicket } from '../../core/commands/streamTickets.js';
import { ApiError, invalidParameter } from '../errors.js';
import { refuseForeignOrigin } from '../security/crossSite.js';
import { bearerToken, sessionToken } from '../session/sessionToken.js';
import { upgradeOrigin, upgradeSession, type UpgradeEndpoint } from '../upgrade.js';
import type { StreamGateway, StreamOpener } from './gateway.js';

export const STREAM_PATH = streamPath;

/**
 * `GET /api/stream` as a WebSocket endpoint (api/upgrade.ts opens and refuses it). Who: `?ticket=`
 * (stream.createTicket), or the session as calls take it — a session token as `Authorization: Bearer`,
 * or the session cookie, which a page of another site could make a browser send: with the cookie, the
 * Origin must be this server's, as for calls. `?cursor=` resumes after that position. A person has at
 * most `stream.maxConnectionsPerPerson` streams on one server.
 */
export function streamEndpoint(ctx: ServerContext, gateway: StreamGateway): UpgradeEndpoint<StreamOpener> {
  const publicOrigin = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).origin : undefined;

  async function whoOpens(request: IncomingMessage, query: URLSearchParams): Promise<Omit<StreamOpener, 'cursor'>> {
    const ticket = query.get('ticket');
    if (ticket !== null) {
      const redeemed = await redeemStreamTicket(ctx, {}, { ticket });
      if (!redeemed) throw new ApiError('NotSignedIn', 'The stream ticket is unknown, used or expired; call stream.createTicket for a new one.');
      return redeemed;
    }
    if (bearerToken(request) === undefined) refuseForeignOrigin(request.headers, publicOrigin ?? upgradeOrigin(request));
    return upgradeSession(ctx, sessionToken(request));
  }

  return {
    what: 'the stream',
    serves: (pathname) => pathname === STREAM_PATH,
    gateway,
    async authenticate(request, url) {
      const cursor = url.searchParams.get('cursor') ?? '';
      if (cursor !== '' && !streamCursorPattern.test(cursor)) {
        throw invalidParameter('cursor', 'cursor must be the digits of a cursor the stream sent; leave it out to start afresh.');
      }
      const opener = await whoOpens(request, url.searchParams);
      return cursor === '' ? opener : { ...opener, cursor: Number(cursor) };
    },
    rateKey: (opener) => `session:${opener.person.id}:stream`,
    limit(opener) {
      const limit = ctx.config.stream.maxConnectionsPerPerson;
      if (gateway.connectionsOf(opener.person.id) >= limit) {
        throw new ApiError('TooManyRequests', `You have ${limit} streams open on this server already; close one first.`, { retryAfter: 5 }, { 'retry-after': '5' });
      }
    },
  };
}
