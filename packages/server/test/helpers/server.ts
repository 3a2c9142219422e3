import type { PlainIds } from '@aviary/protocol';
import { AviaryClient } from '@aviary/sdk';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import type { DeliverySettings } from '../../src/events/delivery/settings.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { dialects, type TestDialect } from './dialects.js';
import { factories, type Factories } from './factories.js';
import { createTestStore, type TestStore } from './store.js';

export interface TestServer {
  dialect: TestDialect;
  url: string;
  server: RunningServer;
  testStore: TestStore;
  f: Factories;
  /** A typed client for a token; ids are plain strings, as the factories make them. */
  client(token: string): AviaryClient<PlainIds>;
  /** Raw HTTP: `call('chat.sendMessage', {query, form, json, headers, method})`. */
  call(method: string, options?: CallOptions): Promise<CallResult>;
}

export interface CallOptions {
  httpMethod?: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
}

export interface TestServerOptions {
  /** The server's clock (ctx.now), for tests of time windows; factories use it too. Defaults to Date.now. */
  now?: () => number;
  /** Event delivery settings: short time-outs and polls for event tests. */
  events?: Partial<DeliverySettings>;
  /** Where the server logs (a test that reads its warnings); silent by default. */
  log?: FastifyBaseLogger;
}

/** What a test server may reach of the internal addresses: its own loopback listener apps. */
export const loopbackHosts = ['127.0.0.0/8', '::1', 'localhost'];

export async function startTestServer(dialect: TestDialect, config: ConfigInput = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const testStore = await createTestStore(dialect);
  const server = await startServer(
    // Listener apps in tests run on loopback, so loopback is allowed unless a test says otherwise; every
    // handler's result is checked against its schema (config.checkResults).
    loadConfig({ port: 0, host: '127.0.0.1', dataDir: testStore.dataDir, logLevel: 'silent', allowedInternalHosts: loopbackHosts, checkResults: true, drainIdleMs: 0, ...config }, {}),
    { store: testStore.store, now: options.now, events: options.events, log: options.log },
  );
  const url = server.url;
  return {
    dialect,
    url,
    server,
    testStore,
    f: factories(testStore.store.db, options.now),
    client: (token) => new AviaryClient<PlainIds>({ baseUrl: url, token }),
    call: (method, options = {}) => rawCall(url, method, options),
  };
}

/**
 * A new server on the store of `stopped` (whose server has closed), as after a restart: `config` may name
 * the old port (`new URL(stopped.url).port`) so that open pages reconnect to the same address.
 */
export async function restartOnSameStore(stopped: TestServer, config: ConfigInput = {}): Promise<TestServer> {
  const store = stopped.testStore.reopen();
  const { dataDir, databaseUrl } = stopped.testStore;
  const server = await startServer(
    loadConfig({ port: 0, host: '127.0.0.1', dataDir, databaseUrl, logLevel: 'silent', allowedInternalHosts: loopbackHosts, checkResults: true, drainIdleMs: 0, ...config }, {}),
    { store },
  );
  return {
    ...stopped,
    url: server.url,
    server,
    testStore: { ...stopped.testStore, store },
    f: factories(store.db),
    client: (token) => new AviaryClient<PlainIds>({ baseUrl: server.url, token }),
    call: (method, options) => rawCall(server.url, method, options),
  };
}

export async function stopTestServer(test: TestServer): Promise<void> {
  await test.server.close();
  await test.testStore.destroy();
}

export async function rawCall(baseUrl: string, method: string, options: CallOptions = {}): Promise<CallResult> {
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.body;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}/v1/${method}${query}`, {
    method: options.httpMethod ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the test sees the text and fails on its own terms.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * Runs a suite once per dialect against a real server on port 0: `forEachDialect('chat', (t) => …)`,
 * where `t()` gives the running TestServer inside tests.
 */
export function forEachDialect(
  name: string,
  suite: (server: () => TestServer) => void,
  config: ConfigInput = {},
  options: TestServerOptions = {},
): void {
  for (const dialect of dialects) {
    describe(`${name} [${dialect}]`, () => {
      let test: TestServer | undefined;
      beforeAll(async () => {
        test = await startTestServer(dialect, config, options);
      });
      afterAll(async () => {
        if (test) await stopTestServer(test);
      });
      suite(() => {
        if (!test) throw new Error('the test server did not start');
        return test;
      });
    });
  }
}
