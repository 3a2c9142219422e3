import { createHash } from 'node:crypto';
import { ListenReplyFrame, listenMaxReplyBytes } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerContext } from '../../context.js';
import { findApp } from '../../core/queries/apps.js';
import { liveCredentialHashes } from '../../core/queries/sessions.js';
import { credentialsTopic, parseCredentialsNotice, type CredentialsNotice } from '../../core/effects/credentialsNotice.js';
import { endBackoffAfter2xx } from '../../events/delivery/listenerBackoff.js';
import type { ListenTunnel } from '../../events/delivery/listenTunnels.js';

/** Close code for a reply frame that is not JSON or not one of the protocol's reply frames. */
const BAD_FRAME = 1008;
/** Close code at shutdown: reconnect (to this server once it is back, or another process). */
const GOING_AWAY = 1001;
/** Close code when what opened the connection no longer holds: the session ended, the secret changed, the app is gone. */
const CREDENTIALS_ENDED = 1008;

/** What opened a listen connection: the app's secret (kept as its digest), or its developer's session. */
export interface ListenOpener {
  appId: string;
  by: { secretDigest: string } | { userId: string; sessionHash: string };
}

/** SHA-256 of a secret, base64: compared in constant time, and all a connection keeps of the secret that opened it. */
export const secretDigest = (secret: string): string => createHash('sha256').update(secret).digest('base64');

/**
 * The listen connections' WebSockets in this process. Each one, while open, takes its app's events
 * (ctx.events.tunnels): event frames out, reply frames back to the call waiting for them.
 */
export class ListenGateway {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: listenMaxReplyBytes, perMessageDeflate: false, clientTracking: false });
  private readonly sockets = new Map<WebSocket, ListenOpener>();
  private accepting = true;
  private readonly stopHearingCredentials: () => void;

  constructor(private readonly ctx: Pick<ServerContext, 'events' | 'log' | 'db' | 'now' | 'bus'>) {
    this.stopHearingCredentials = ctx.bus.subscribe(credentialsTopic, (payload) => {
      const notice = parseCredentialsNotice(payload);
      if (notice) this.closeEnded(notice).catch((error: unknown) => ctx.log.error({ err: error }, 'could not check the listen connections of ended credentials'));
    });
  }

  get isAccepting(): boolean {
    return this.accepting;
  }

  open(socket: WebSocket, opener: ListenOpener): void {
    const { appId } = opener;
    this.sockets.set(socket, opener);
    const tunnel: ListenTunnel = { send: (frame) => socket.send(JSON.stringify(frame)) };
    const detach = this.ctx.events.tunnels.attach(appId, tunnel);
    this.ctx.log.info({ appId }, "a listen connection opened: the app's events go to it");
    socket.on('error', () => undefined);
    socket.on('message', (data, isBinary) => {
      const frame = isBinary ? undefined : parseFrame(data.toString());
      if (!frame) return socket.close(BAD_FRAME, 'a reply frame must be an answer or unreachable frame as JSON text');
      this.ctx.events.tunnels.reply(tunnel, frame);
    });
    socket.once('close', () => {
      this.sockets.delete(socket);
      detach();
      this.ctx.log.info({ appId }, 'a listen connection closed');
    });
    void this.releaseWaiting(appId);
  }

  /**
   * Events waiting out the listener URL's backoff go at once: they will go to the listen connection,
   * which has not failed. (A paused app stays paused until its developer resumes it.)
   */
  private async releaseWaiting(appId: string): Promise<void> {
    try {
      await this.ctx.db.transaction().execute((tx) => endBackoffAfter2xx(tx, appId, this.ctx.now()));
    } catch (error) {
      this.ctx.log.warn({ err: error, appId }, 'could not release the events waiting for a listen connection');
    }
    this.ctx.events.wake();
  }

  /**
   * Credentials ended (a notice from any process): the connections that depended on them close now. The
   * store decides: a session still live, or the app's current secret, keeps its connection open.
   */
  private async closeEnded(notice: CredentialsNotice): Promise<void> {
    const affected = [...this.sockets].filter(([, opener]) => ('userId' in notice ? 'userId' in opener.by && opener.by.userId === notice.userId : opener.appId === notice.appId));
    if (affected.length === 0) return;
    if ('userId' in notice) {
      const hashes = affected.flatMap(([, opener]) => ('sessionHash' in opener.by ? [opener.by.sessionHash] : []));
      const live = await liveCredentialHashes(this.ctx.db, hashes, this.ctx.now());
      for (const [socket, opener] of affected) {
        if ('sessionHash' in opener.by && !live.has(opener.by.sessionHash)) socket.close(CREDENTIALS_ENDED, 'signed out: sign in again');
      }
      return;
    }
    const app = await findApp(this.ctx.db, notice.appId);
    for (const [socket, opener] of affected) {
      if (!app) socket.close(CREDENTIALS_ENDED, 'the app was deleted');
      else if ('secretDigest' in opener.by && opener.by.secretDigest !== secretDigest(app.secret)) socket.close(CREDENTIALS_ENDED, "the app's secret changed: listen with the new one");
    }
  }

  /** At shutdown: no new connections, and the open ones are told to go away. */
  close(): void {
    this.accepting = false;
    this.stopHearingCredentials();
    for (const socket of this.sockets.keys()) socket.close(GOING_AWAY, 'the server is shutting down');
  }
}

function parseFrame(text: string): ListenReplyFrame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Value.Check(ListenReplyFrame, value) ? value : undefined;
  } catch {
    return undefined;
  }
}
