import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AviaryEvent, EventTokenClaims } from '@aviary/protocol';
import { createEventListener, type EventListener } from '@aviary/sdk';
import { expect } from 'vitest';
import type { UsersTable } from '../../src/store/schema.js';
import type { CallResult, TestServer } from '../helpers/server.js';

/** A loopback URL where nothing listens: connections are refused. */
export { closedPortUrl as refusingUrl, eventually } from '../events/listener.js';

/** How the app's listener answers: through the SDK listener (verifying every token), a fixed status, or never. */
export type ListenerBehaviour = 'sdk' | { status: number } | 'hang';

/** A real app listener on loopback. Until `useCredentials`, and whenever the SDK refuses a token, it answers 403. */
export interface AppListener {
  url: string;
  /** Every POST, accepted or not. */
  requests: Array<{ headers: IncomingHttpHeaders; body: any }>;
  /** Events the SDK listener accepted: their tokens verified with the current credentials. */
  verified: Array<{ event: AviaryEvent; claims: EventTokenClaims; eventId: string }>;
  behaviour: ListenerBehaviour;
  /** (Re)builds the SDK listener with the app's id and secret, as an app does after a secret rotation. */
  useCredentials(appId: string, appSecret: string): void;
  waitForVerified(count: number, timeoutMs?: number): Promise<AppListener['verified']>;
  close(): Promise<void>;
}

export async function startAppListener(behaviour: ListenerBehaviour = 'sdk'): Promise<AppListener> {
  let sdk: EventListener | undefined;
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      listener.requests.push({ headers: req.headers, body });
      const mode = listener.behaviour;
      if (mode === 'hang') return void hanging.add(res);
      if (mode !== 'sdk') return void res.writeHead(mode.status, { 'content-type': 'application/json' }).end('{"error":"broken"}');
      if (!sdk) return void res.writeHead(403).end();
      void sdk.handle({ headers: req.headers, body: raw }).then((answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const listener: AppListener = {
    url: `http://127.0.0.1:${port}/events`,
    requests: [],
    verified: [],
    behaviour,
    useCredentials(appId, appSecret) {
      sdk = createEventListener({
        appId,
        appSecret,
        onEvent: (event, context) => {
          listener.verified.push({ event, claims: context.claims, eventId: context.eventId });
        },
      });
    },
    async waitForVerified(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (listener.verified.length < count) {
        if (Date.now() > deadline) throw new Error(`the app accepted ${listener.verified.length} of ${count} events in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return listener.verified.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return listener;
}


export const password = 'correct horse battery staple';

/** A person signed in through POST /api/session, calling the server's JSON APIs with the session token. */
export interface Person {
  user: UsersTable;
  request(method: string, path: string, json?: unknown): Promise<CallResult>;
}

export async function signedInPerson(t: TestServer, teamId: string, role: UsersTable['role'] = 'user'): Promise<Person> {
  const user = await t.f.person(teamId, { password, role });
  const session = await http(t.url, 'POST', '/api/session', { email: user.email, password });
  expect(session.status).toBe(200);
  const headers = { authorization: `Bearer ${session.body.sessionToken}` };
  return { user, request: (method, path, json) => http(t.url, method, path, json, headers) };
}

export async function http(baseUrl: string, method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<CallResult> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Asserts an error answer: its status, code and (when given) the parameter it names. */
export function expectError(result: CallResult, status: number, error: string, parameter?: string): void {
  expect(result.body, JSON.stringify(result.body)).toMatchObject({ error, description: expect.any(String), ...(parameter ? { parameter } : {}) });
  expect(result.status).toBe(status);
}

/** The answer of `users.getInfo` for a method token: 200, or the error code. */
export async function tokenOutcome(t: TestServer, token: string): Promise<string> {
  const answer = await t.call('users.getInfo', { query: { token } });
  return answer.status === 200 ? 'ok' : `${answer.body.error}${answer.body.disabledBy ? `:${answer.body.disabledBy}` : ''}`;
}

