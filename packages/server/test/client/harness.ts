import type { AviaryEvent } from '@aviary/protocol';
import { expect } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { SESSION_LIFETIME_MS } from '../../src/core/commands/sessions.js';
import { hashToken, newSecret } from '../../src/store/ids.js';
import type { AppsTable, UsersTable } from '../../src/store/schema.js';
import { answerWithSdk, startListener, type VerifiedEvent } from '../helpers/listener.js';
import { allowOrigins } from '../helpers/origins.js';
import type { CallResult, TestServer } from '../helpers/server.js';

/** An event the app's SDK listener accepted: its token verified for this app and the event's user. */
export type { VerifiedEvent } from '../helpers/listener.js';

/** A real app: the test listener (helpers/listener.ts) answering through @aviary/sdk's createEventListener with the app's secret. */
export interface SdkApp {
  app: AppsTable;
  received: VerifiedEvent[];
  /** What the app's handler returns (a toast, an attachment…) or throws; replace at will. */
  answer: (event: AviaryEvent) => unknown;
  waitFor(count: number, timeoutMs?: number): Promise<VerifiedEvent[]>;
  close(): Promise<void>;
}

const openApps = new Set<SdkApp>();

/** Closes every app listener a test file started; call it in afterAll. */
export async function closeSdkApps(): Promise<void> {
  await Promise.all([...openApps].map((app) => app.close()));
}

export async function startSdkApp(t: TestServer, input: { teamId: string; developerId: string; integrations?: unknown }): Promise<SdkApp> {
  // The listener needs the app's id and secret, the app needs the listener's URL: listen first, verify later.
  const listener = await startListener(answerWithSdk);
  const app = await t.f.app(input.teamId, input.developerId, { listenerUrl: listener.url, integrations: input.integrations });
  const sdkApp: SdkApp = {
    app,
    received: listener.verified,
    answer: () => undefined,
    waitFor: (count, timeoutMs) => listener.waitForVerified(count, timeoutMs),
    async close() {
      openApps.delete(sdkApp);
      await listener.close();
    },
  };
  openApps.add(sdkApp);
  listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async (event) => (await sdkApp.answer(event)) as never });
  return sdkApp;
}

/** A person signed in through POST /api/session, calling the methods with the session token. */
export interface SignedIn {
  user: UsersTable;
  sessionToken: string;
  /** Calls a /v1 method with the session. */
  call(method: string, params?: unknown): Promise<CallResult>;
}

/** Signs in through POST /api/session, as the web client does. */
export async function signIn(t: TestServer, user: UsersTable, password: string): Promise<SignedIn> {
  const signedIn = await http(t.url, 'POST', '/api/session', { json: { email: user.email, password } });
  expect(signedIn.status).toBe(200);
  return withSession(t, user, signedIn.body.sessionToken);
}

/**
 * A session made the way signIn makes one, minus the password check: scrypt is slow by design, and the
 * casts of these tests need many people (signing in has its own test).
 */
export async function sessionFor(t: TestServer, user: UsersTable): Promise<SignedIn> {
  const sessionToken = newSecret('as_s_');
  const now = Date.now();
  await t.testStore.store.db
    .insertInto('sessions')
    .values({ token_hash: hashToken(sessionToken), user_id: user.id, created_at: now, expires_at: now + SESSION_LIFETIME_MS })
    .execute();
  return withSession(t, user, sessionToken);
}

function withSession(t: TestServer, user: UsersTable, sessionToken: string): SignedIn {
  const headers = { authorization: `Bearer ${sessionToken}` };
  return {
    user,
    sessionToken,
    call: (method, params = {}) => http(t.url, 'POST', `/v1/${method}`, { json: params, headers }),
  };
}

export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: { json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  // A JSON body is sent as JSON; a raw body exactly as given, with only the headers the test chose.
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...options.headers, ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (/widget.js): the test reads the text.
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * The cast of a client test, all new rows: Alice and Bob, signed in, in a private channel "general";
 * an app of Alice's with `integrations`, its bot and a real SDK listener, installed by Alice only, which
 * may open widgets on https://example.test and https://widgets.example.test.
 */
export async function clientCast(t: TestServer, integrations: unknown = {}) {
  const team = await t.f.team();
  const alice = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const bob = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker' });
  const sdkApp = await startSdkApp(t, { teamId: team.id, developerId: alice.id, integrations });
  // Where the tests' ServiceML actions, attachment widgets and widgets' own calls lead: registered by the app's developer.
  await allowOrigins(t.testStore.store.db, sdkApp.app.id, ['https://example.test', 'https://widgets.example.test']);
  await t.f.install(sdkApp.app.id, alice.id);
  const bot = await t.f.bot(sdkApp.app.id);
  const { channel } = await createChannel(t.server.ctx, { user: alice, appId: null }, { name: 'general', members: [bob.id] });
  return {
    team,
    app: sdkApp.app,
    sdkApp,
    bot,
    channel,
    alice: await sessionFor(t, alice),
    bob: await sessionFor(t, bob),
    /** Another signed-in teammate, for tests that need one. */
    person: async (firstName: string) => sessionFor(t, await t.f.person(team.id, { firstName, lastName: 'Teammate' })),
  };
}

/** Asserts an error answer of the API. */
export function expectError(result: CallResult, expected: { status?: number; error: string; parameter?: string; description?: RegExp }): void {
  expect(result.body, JSON.stringify(result.body)).toMatchObject({ error: expected.error, ...(expected.parameter ? { parameter: expected.parameter } : {}) });
  expect(result.status).toBe(expected.status ?? 400);
  if (expected.description) expect(result.body.description).toMatch(expected.description);
}
