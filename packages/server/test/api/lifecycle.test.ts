import { once } from 'node:events';
import { AviaryClient } from '@aviary/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openStore } from '../../src/store/store.js';
import { teamWithApp } from '../helpers/factories.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { RawConnection, request } from './rawHttp.js';

const running: TestServer[] = [];
afterEach(async () => {
  for (const test of running.splice(0)) await stopTestServer(test).catch(() => undefined);
});

async function serve(config: Parameters<typeof startTestServer>[1] = {}): Promise<TestServer> {
  const test = await startTestServer('sqlite', config);
  running.push(test);
  return test;
}

describe('slow clients', () => {
  it('answers the JSON 408 when the headers do not arrive in time', async () => {
    const test = await serve({ requestTimeoutMs: 300 });
    const connection = await RawConnection.open(test.url);
    connection.write('GET /v1/users.getInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const [response] = await connection.responses(1);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual({ error: 'RequestTimeout', description: expect.any(String) });
    connection.close();
  });

  it('answers the JSON 408 when the body does not arrive in time', async () => {
    const test = await serve({ requestTimeoutMs: 300 });
    const connection = await RawConnection.open(test.url);
    connection.write(request('/v1/users.getInfo', 'token=abcdef').slice(0, -4));
    const [response] = await connection.responses(1);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body).error).toBe('RequestTimeout');
    connection.close();
  });
});

describe('kept-alive connections', () => {
  it('keeps an idle connection open past the request time-out: only a request in progress has that deadline', async () => {
    const test = await serve({ requestTimeoutMs: 300 });
    const { people } = await teamWithApp(test.testStore.store.db, 1);
    const body = `token=${encodeURIComponent(people[0].token)}`;
    const idle = await RawConnection.open(test.url);
    idle.write(request('/v1/users.getInfo', body));
    expect((await idle.responses(1))[0].status).toBe(200);
    // A slow client that started after the connection went idle gets its 408: the deadline has passed for both.
    const slow = await RawConnection.open(test.url);
    slow.write('GET /v1/users.getInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect((await slow.responses(1))[0].status).toBe(408);
    idle.write(request('/v1/users.getInfo', body));
    const [, again] = await idle.responses(2);
    expect(again.status).toBe(200);
    idle.close();
    slow.close();
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests and serves one more on a kept-alive socket, then closes it', async () => {
    const test = await serve();
    const { people } = await teamWithApp(test.testStore.store.db, 1);
    const body = `token=${encodeURIComponent(people[0].token)}`;

    const connection = await RawConnection.open(test.url);
    // In flight once the server has read the headers: all but the body's last bytes are sent.
    const inFlight = once(test.server.http.app.server, 'request');
    connection.write(request('/v1/users.getInfo', body).slice(0, -5));
    await inFlight;

    // close() starts draining before it returns: whatever arrives from now on meets a draining server.
    const closing = test.server.close();
    // The in-flight request completes; a new request on the same kept-alive socket arrives during the
    // drain (as one a proxy sent on a connection it kept): it is served, and the connection ends after it.
    connection.write(body.slice(-5) + request('/v1/users.getInfo', body));

    const [finished, servedLast] = await connection.responses(2);
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).id).toBe(people[0].id);
    expect(servedLast.status).toBe(200);
    expect(JSON.parse(servedLast.body).id).toBe(people[0].id);
    expect(servedLast.headers.connection).toBe('close');
    await closing;
    await expect(fetch(`${test.url}/v1/users.getInfo`)).rejects.toThrow();
  });

  it('keeps an idle kept-alive connection open for drainIdleMs and answers what comes on it', async () => {
    // Long enough that only the request below can end the drain before it.
    const test = await serve({ drainIdleMs: 20_000 });
    const { people } = await teamWithApp(test.testStore.store.db, 1);
    const body = `token=${encodeURIComponent(people[0].token)}`;
    const connection = await RawConnection.open(test.url);
    connection.write(request('/v1/users.getInfo', body));
    const [before] = await connection.responses(1);
    expect(before.status).toBe(200);
    expect(before.headers['keep-alive']).toBe('timeout=75');

    const closing = test.server.close();
    // The server no longer accepts connections, but the idle one is still served.
    await expect(fetch(`${test.url}/v1/users.getInfo`)).rejects.toThrow();
    connection.write(request('/v1/users.getInfo', body));
    const [, during] = await connection.responses(2);
    expect(during.status).toBe(200);
    expect(during.headers.connection).toBe('close');
    await closing;
  });

  it('closes idle kept-alive connections at once with drainIdleMs 0', async () => {
    const test = await serve({ drainIdleMs: 0 });
    const { people } = await teamWithApp(test.testStore.store.db, 1);
    const connection = await RawConnection.open(test.url);
    connection.write(request('/v1/users.getInfo', `token=${encodeURIComponent(people[0].token)}`));
    await connection.responses(1);
    const closed = once(connection.socket, 'close');
    await test.server.close();
    await closed;
  });
});

describe('rate limits', () => {
  it('limits a burst per token with Retry-After and X-RateLimit headers, leaving other tokens alone', async () => {
    const test = await serve({ rateLimits: { read: { rate: 1, burst: 3 } } });
    const { people } = await teamWithApp(test.testStore.store.db, 2);
    const call = (token: string) => test.call('users.getInfo', { query: { token } });

    const first = await call(people[0].token);
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    await call(people[0].token);
    await call(people[0].token);
    const limited = await call(people[0].token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toMatchObject({ error: 'TooManyRequests', retryAfter: 1 });
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    const other = await call(people[1].token);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('the SDK client waits out a 429 and retries', async () => {
    const test = await serve({ rateLimits: { read: { rate: 2, burst: 1 } } });
    const { people } = await teamWithApp(test.testStore.store.db, 1);
    // What the client saw: a 429 asking for a second's wait, then the retry's answer.
    const statuses: Array<{ status: number; retryAfter: string | null }> = [];
    const client = new AviaryClient({
      baseUrl: test.url,
      token: people[0].token,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
        return response;
      },
    });
    const answers = await Promise.all([client.users.getInfo(), client.users.getInfo()]);
    expect(answers.map((answer) => answer.id)).toEqual([people[0].id, people[0].id]);
    // Had the client retried before the bucket refilled, it would have met a second 429.
    expect(statuses.map((seen) => seen.status).sort()).toEqual([200, 200, 429]);
    expect(statuses.find((seen) => seen.status === 429)?.retryAfter).toBe('1');
  });
});

describe.runIf(dialects.includes('postgres'))('an unreachable store', () => {
  it('answers 503 ServiceUnavailable, not 500', async () => {
    const store = openStore({ databaseUrl: 'postgres://postgres@127.0.0.1:1/test', dataDir: '/tmp' });
    const server = await startServer(loadConfig({ port: 0, logLevel: 'silent' }, {}), { store, migrate: false });
    try {
      const response = await fetch(`${server.url}/v1/users.getInfo?token=abc`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect((await response.json()).error).toBe('ServiceUnavailable');
    } finally {
      await server.close();
    }
  });
});
