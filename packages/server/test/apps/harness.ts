import type { UsersTable } from '../../src/store/schema.js';
import { expect } from 'vitest';
import type { CallResult, TestServer } from '../helpers/server.js';
import { startListener, type Answer, type TestListener } from '../helpers/listener.js';

/** A loopback URL where nothing listens: connections are refused. */
export { closedPortUrl as refusingUrl } from '../helpers/listener.js';

/**
 * How the app's listener answers: through the SDK listener (verifying every token), a fixed status (once
 * `after` has settled, when given), or never.
 */
export type ListenerBehaviour = 'sdk' | { status: number; after?: Promise<unknown> } | 'hang';

/**
 * The test listener (helpers/listener.ts) as these tests drive it: `behaviour` switches how it answers,
 * `useCredentials` gives the SDK the app's id and secret (until then, and whenever the SDK refuses a
 * token, it answers 403), and `requests` is every POST, accepted or not.
 */
export interface AppListener extends Omit<TestListener, 'respond' | 'verifyAs'> {
  requests: TestListener['received'];
  behaviour: ListenerBehaviour;
  useCredentials(appId: string, appSecret: string): void;
}

const answerFor = (behaviour: ListenerBehaviour): Answer =>
  typeof behaviour === 'string' ? behaviour : { status: behaviour.status, body: '{"error":"broken"}', after: behaviour.after };

export async function startAppListener(behaviour: ListenerBehaviour = 'sdk'): Promise<AppListener> {
  const listener = await startListener();
  const appListener = Object.assign(listener, {
    behaviour,
    requests: listener.received,
    useCredentials: (appId: string, appSecret: string) => listener.verifyAs(appId, appSecret),
  });
  listener.respond = () => answerFor(appListener.behaviour);
  return appListener;
}

export const password = 'correct horse battery staple';

/** A person signed in through POST /api/session, calling the server's JSON APIs with the session token. */
export interface Person {
  user: UsersTable;
  request(method: string, path: string, json?: unknown): Promise<CallResult>;
  /** Calls a /v1 method with the session. */
  call(method: string, params?: unknown): Promise<CallResult>;
}

export async function signedInPerson(t: TestServer, teamId: string, role: UsersTable['role'] = 'user'): Promise<Person> {
  const user = await t.f.person(teamId, { password, role });
  const session = await http(t.url, 'POST', '/api/session', { email: user.email, password });
  expect(session.status).toBe(200);
  const headers = { authorization: `Bearer ${session.body.sessionToken}` };
  return { user, request: (method, path, json) => http(t.url, method, path, json, headers), call: (method, params = {}) => http(t.url, 'POST', `/v1/${method}`, params, headers) };
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

