import { errorRegistry, listenPath, streamPath } from '@aviary/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ConfigInput } from '../../src/config.js';
import { sessionFor } from '../client/harness.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { RawConnection, type RawResponse } from './rawHttp.js';

/**
 * The two WebSocket endpoints, the stream and `aviary listen`, are opened and refused by one step
 * (api/upgrade.ts): the same refusals, in the API's error shape and status, with Retry-After on 503.
 */
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(stopTestServer));
});

async function serve(config: ConfigInput = {}): Promise<TestServer> {
  const t = await startTestServer('sqlite', config);
  servers.push(t);
  return t;
}

/** An upgrade request as the wire carries it, and the server's answer. */
async function upgrade(t: TestServer, path: string, options: { verb?: string; authorization?: string } = {}): Promise<RawResponse> {
  const connection = await RawConnection.open(t.url);
  try {
    const authorization = options.authorization ? `Authorization: ${options.authorization}\r\n` : '';
    connection.write(
      `${options.verb ?? 'GET'} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${authorization}\r\n`,
    );
    const [answer] = await connection.responses(1);
    return answer;
  } finally {
    connection.close();
  }
}

function expectRefusal(answer: RawResponse, error: keyof typeof errorRegistry, headers: Record<string, string> = {}): void {
  expect(answer.status, answer.body).toBe(errorRegistry[error].status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(answer.body)).toMatchObject({ error, description: expect.any(String) });
  for (const [name, value] of Object.entries(headers)) expect(answer.headers[name], name).toBe(value);
}

/** Each endpoint: its path, and a credential it would accept. */
async function endpoints(t: TestServer) {
  const team = await t.f.team();
  const developer = await t.f.person(team.id);
  const app = await t.f.app(team.id, developer.id);
  const { sessionToken } = await sessionFor(t, developer);
  return [
    { name: 'the stream', path: streamPath, authorization: `Bearer ${sessionToken}` },
    { name: 'a listen connection', path: listenPath(app.id), authorization: `Bearer ${app.secret}` },
  ];
}

/** Opens the endpoint for real, then closes it. */
async function openAndClose(t: TestServer, endpoint: { path: string; authorization: string }): Promise<void> {
  const socket = new WebSocket(new URL(endpoint.path, t.url.replace(/^http/, 'ws')), { headers: { authorization: endpoint.authorization } });
  await new Promise<void>((resolve, reject) => socket.once('open', () => resolve()).once('error', reject));
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.close();
  });
}

describe('refusing a WebSocket upgrade', () => {
  it('refuses a verb but GET with 405 and Allow: GET, at both endpoints', async () => {
    const t = await serve();
    for (const endpoint of await endpoints(t)) {
      expectRefusal(await upgrade(t, endpoint.path, { verb: 'POST', authorization: endpoint.authorization }), 'HTTPMethodNotAllowed', { allow: 'GET' });
    }
  });

  it('refuses without a credential, or with one nobody holds, as NotSignedIn at both endpoints', async () => {
    const t = await serve();
    for (const endpoint of await endpoints(t)) {
      expectRefusal(await upgrade(t, endpoint.path), 'NotSignedIn');
      expectRefusal(await upgrade(t, endpoint.path, { authorization: `Bearer as_s_${'A'.repeat(43)}` }), 'NotSignedIn');
    }
  });

  it('answers 503 with Retry-After while the server stops taking connections, at both endpoints', async () => {
    const t = await serve();
    const both = await endpoints(t);
    await t.server.gateway.close();
    t.server.listen.close();
    for (const endpoint of both) {
      expectRefusal(await upgrade(t, endpoint.path, { authorization: endpoint.authorization }), 'ServiceUnavailable', { 'retry-after': '1' });
    }
  });

  it('takes from the opener’s rate-limit bucket, as calls do: past it 429 with Retry-After, at both endpoints', async () => {
    const t = await serve({ rateLimits: { read: { rate: 1e-9, burst: 1 } } });
    for (const endpoint of await endpoints(t)) {
      await openAndClose(t, endpoint);
      const refused = await upgrade(t, endpoint.path, { authorization: endpoint.authorization });
      expectRefusal(refused, 'TooManyRequests');
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    }
  });

  it('refuses a path no endpoint serves as NoSuchMethod, saying where the stream is', async () => {
    const t = await serve();
    const answer = await upgrade(t, '/api/streams');
    expectRefusal(answer, 'NoSuchMethod');
    expect(JSON.parse(answer.body).description).toContain(streamPath);
  });
});
