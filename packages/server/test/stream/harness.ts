import type { StreamDataFrame, StreamFrame } from '@aviary/protocol';
import { WebSocket, type ClientOptions } from 'ws';
import { deleteApp } from '../../src/core/commands/apps.js';
import { sessionFor, type SignedIn } from '../client/harness.js';
import type { TestServer } from '../helpers/server.js';
import { cliActor } from '../../src/core/audit/record.js';

/** A stream as a client sees it: every frame in order, and how it ended. */
export interface StreamClient {
  socket: WebSocket;
  frames: StreamFrame[];
  /** The data frames only (no hello, cursor, resync, reconnect, typing, presence). */
  data(): StreamDataFrame[];
  /** Resolves with the first frame, received or to come, for which `match` holds. */
  waitFor(match: (frame: StreamFrame) => boolean): Promise<StreamFrame>;
  /** The cursor of the last frame that carried one. */
  cursor(): string;
  /** Resolves when the socket has closed, with the server's close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export interface OpenOptions {
  cursor?: string;
  ticket?: string;
  /** Headers instead of the session's bearer token (a cookie, an Origin…). */
  headers?: Record<string, string>;
  /** `ws` client options (e.g. autoPong: false for a dead peer). */
  client?: ClientOptions;
}

// Control frames and the frames that are not kept (typing, presence): none is a data frame.
const controlTypes = new Set(['hello', 'cursor', 'resync', 'reconnect', 'typing', 'presence']);
const openClients = new Set<StreamClient>();

export const streamUrl = (t: Pick<TestServer, 'url'>, query: Record<string, string> = {}): string =>
  `${t.url.replace(/^http/, 'ws')}/api/stream${Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''}`;

/** Opens the stream as `who` (bearer session token unless `headers` say otherwise) and waits for `hello`. */
export async function openStream(t: Pick<TestServer, 'url'>, who: SignedIn | undefined, options: OpenOptions = {}): Promise<StreamClient> {
  const query: Record<string, string> = {};
  if (options.cursor !== undefined) query.cursor = options.cursor;
  if (options.ticket !== undefined) query.ticket = options.ticket;
  const headers = options.headers ?? (who ? { authorization: `Bearer ${who.sessionToken}` } : {});
  const socket = new WebSocket(streamUrl(t, query), { headers, ...options.client });
  const client = watch(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) => reject(new Error(`the upgrade was refused: HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
  await client.waitFor((frame) => frame.type === 'hello');
  return client;
}

function watch(socket: WebSocket): StreamClient {
  const frames: StreamFrame[] = [];
  const waiters: Array<{ match: (frame: StreamFrame) => boolean; resolve: (frame: StreamFrame) => void }> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as StreamFrame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (!waiter.match(frame)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const client: StreamClient = {
    socket,
    frames,
    data: () => frames.filter((frame): frame is StreamDataFrame => !controlTypes.has(frame.type)),
    waitFor: (match) => {
      const found = frames.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void closed.then(({ code }) => reject(new Error(`the stream closed (${code}) before the frame came; frames: ${JSON.stringify(frames.map((f) => f.type))}`)));
      });
    },
    cursor: () => {
      const last = frames.findLast((frame) => 'cursor' in frame);
      if (!last || !('cursor' in last)) throw new Error('no frame with a cursor yet');
      return last.cursor;
    },
    closed,
    async close() {
      openClients.delete(client);
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.terminate();
      await closed;
    },
  };
  openClients.add(client);
  return client;
}

/** Closes every stream a test file opened; call it in afterEach or afterAll. */
export async function closeStreams(): Promise<void> {
  await Promise.all([...openClients].map((client) => client.close()));
}

/** A frame of a new message with this text. */
export const messageWithText = (text: string) => (frame: StreamFrame) =>
  (frame.type === 'message.created' || frame.type === 'message.updated') && frame.message.text === text;

/**
 * A fence: one entry every person of the team receives (an app made and deleted). Once a client has it,
 * it has every earlier frame meant for it, so what it lacks was never sent to it.
 */
export async function fence(t: TestServer, teamId: string, developerId: string, clients: StreamClient[]): Promise<void> {
  const app = await t.f.app(teamId, developerId, { name: 'Fence' });
  await deleteApp(t.server.ctx, cliActor, { appId: app.id });
  await Promise.all(clients.map((client) => client.waitFor((frame) => frame.type === 'app.deleted' && frame.appId === app.id)));
}

/** The cast of a stream test: a team with `names` people, each signed in. */
export async function streamCast(t: TestServer, names: readonly string[]) {
  const team = await t.f.team();
  const people: SignedIn[] = [];
  for (const name of names) people.push(await sessionFor(t, await t.f.person(team.id, { firstName: name, lastName: 'Streamer' })));
  return { team, people };
}
