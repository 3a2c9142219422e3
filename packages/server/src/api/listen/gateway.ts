import { ListenReplyFrame, listenMaxReplyBytes } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerContext } from '../../context.js';
import { endBackoffAfter2xx } from '../../events/delivery/listenerBackoff.js';
import type { ListenTunnel } from '../../events/delivery/listenTunnels.js';

/** Close code for a reply frame that is not JSON or not one of the protocol's reply frames. */
const BAD_FRAME = 1008;
/** Close code at shutdown: reconnect (to this server once it is back, or another process). */
const GOING_AWAY = 1001;

/**
 * The listen connections' WebSockets in this process. Each one, while open, takes its app's events
 * (ctx.events.tunnels): event frames out, reply frames back to the call waiting for them.
 */
export class ListenGateway {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: listenMaxReplyBytes, perMessageDeflate: false, clientTracking: false });
  private readonly sockets = new Set<WebSocket>();
  private accepting = true;

  constructor(private readonly ctx: Pick<ServerContext, 'events' | 'log' | 'db' | 'now'>) {}

  get isAccepting(): boolean {
    return this.accepting;
  }

  open(socket: WebSocket, appId: string): void {
    this.sockets.add(socket);
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

  /** At shutdown: no new connections, and the open ones are told to go away. */
  close(): void {
    this.accepting = false;
    for (const socket of this.sockets) socket.close(GOING_AWAY, 'the server is shutting down');
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
