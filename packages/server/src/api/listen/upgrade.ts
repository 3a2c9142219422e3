import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerContext } from '../../context.js';
import { sessionUser } from '../../core/commands/sessions.js';
import { isStoreUnavailable } from '../../store/store.js';
import { findApp } from '../../core/queries/apps.js';
import { sameSecret } from '../appSecretCaller.js';
import { reachAppFor } from '../developerAccess.js';
import { ApiError } from '../errors.js';
import { rawErrorResponse } from '../frameworkErrors.js';
import { hashToken } from '../../store/ids.js';
import { secretDigest, type ListenGateway, type ListenOpener } from './gateway.js';

/** `GET /api/developer/apps/:id/listen`: the path a listen connection upgrades on. */
export const LISTEN_PATH = /^\/api\/developer\/apps\/([^/]{1,64})\/listen$/;

function appIdOf(request: IncomingMessage): string | undefined {
  const match = LISTEN_PATH.exec((request.url ?? '/').split('?')[0]);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/** Whether an upgrade request is for a listen connection (server.ts gives the others to the stream). */
export function isListenUpgrade(request: IncomingMessage): boolean {
  return appIdOf(request) !== undefined;
}

/**
 * The HTTP server's `upgrade` listener for listen connections (`aviary listen`), given only requests
 * `isListenUpgrade` picked. Who: `Authorization: Bearer` with the app developer's session token, or
 * with the app's secret. A refusal is the API's error shape, before any WebSocket exists.
 */
export function listenUpgradeListener(ctx: ServerContext, gateway: ListenGateway) {
  async function authenticate(request: IncomingMessage, appId: string): Promise<ListenOpener> {
    const token = /^Bearer\s+(\S{1,256})\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined) {
      throw new ApiError('NotSignedIn', "Send Authorization: Bearer with the app developer's session token or with the app's secret.");
    }
    const app = await findApp(ctx.db, appId);
    if (app && sameSecret(token, app.secret)) return { appId: app.id, by: { secretDigest: secretDigest(app.secret) } };
    const person = await sessionUser(ctx.db, token, ctx.now());
    if (!person) throw new ApiError('NotSignedIn', "The token is neither a live session nor the app's secret.");
    const reached = await reachAppFor(ctx.db, { kind: 'person', user: person }, appId, 'deliveries', 'listen to its events');
    return { appId: reached.id, by: { userId: person.id, sessionHash: hashToken(token) } };
  }

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, appId: string): Promise<void> {
    if (request.method !== 'GET') throw new ApiError('HTTPMethodNotAllowed', 'A listen connection is opened with GET.');
    if (!gateway.isAccepting) throw new ApiError('ServiceUnavailable', 'The server is shutting down; reconnect shortly.');
    const opener = await authenticate(request, appId);
    gateway.wss.handleUpgrade(request, socket, head, (webSocket) => gateway.open(webSocket, opener));
  }

  return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const appId = appIdOf(request);
    if (appId === undefined) return;
    socket.on('error', () => undefined);
    upgrade(request, socket, head, appId).catch((error: unknown) => {
      const refused = refusal(ctx, error);
      if (socket.writable) socket.end(rawErrorResponse(refused.code, refused.message));
      else socket.destroy();
    });
  };
}

function refusal(ctx: ServerContext, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) return new ApiError('ServiceUnavailable', 'The database is unavailable; reconnect shortly.');
  ctx.log.error({ err: error }, 'unexpected error opening a listen connection');
  return new ApiError('InternalServerError', 'An unexpected condition occurred while opening the listen connection.');
}
