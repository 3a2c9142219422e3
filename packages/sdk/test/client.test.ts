/**
 * The client's retries and time-out against a real loopback HTTP server that answers what each test
 * scripts. The waits go through a delay function that records them and resolves at once: no sleeping.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AviaryApiError, AviaryClient, AviaryTimeoutError, toChannelId, type AviaryClientOptions } from '../src/index.js';
import { parseRetryAfter } from '../src/retry.js';
import { forEachDialect } from '../../server/test/helpers/server.js';

type Reply = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';
let replies: Reply[] = [];
let requests = 0;
const hanging: ServerResponse[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  requests++;
  req.resume();
  const reply = replies.shift() ?? { status: 200, body: { ok: true } };
  if (reply === 'hang') return void hanging.push(res);
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body ?? {}));
});
let baseUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function scripted(script: Reply[], options: Partial<AviaryClientOptions> = {}) {
  replies = [...script];
  requests = 0;
  const waits: number[] = [];
  const client = new AviaryClient({
    baseUrl,
    token: 'token',
    delay: async (ms) => void waits.push(ms),
    random: () => 0.5,
    ...options,
  });
  return { client, waits };
}

const busy = (status: number, retryAfter?: string): Reply => ({
  status,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { error: status === 429 ? 'TooManyRequests' : 'ServiceUnavailable', description: 'busy' },
});

describe('AviaryClient retries', () => {
  it('retries a 429 after its Retry-After in seconds, plus jitter, and returns the answer', async () => {
    const { client, waits } = scripted([busy(429, '2'), busy(503, '1')]);
    expect(await client.chat.sendMessage({ to: toChannelId('g:aaaaaaaaaaaaaaaa'), text: 'hi' })).toEqual({ ok: true });
    expect(requests).toBe(3);
    expect(waits).toEqual([2000 + 200, 1000 + 100]);
  });

  it('reads a Retry-After given as an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially when a 503 has no Retry-After', async () => {
    const { client, waits } = scripted([busy(503), busy(503)], { random: () => 0 });
    await client.channels.list();
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { client, waits } = scripted([busy(429, '1'), busy(429, '1'), busy(429, '1')], { maxRetries: 2 });
    const error = await client.channels.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AviaryApiError);
    expect(error).toMatchObject({ code: 'TooManyRequests', status: 429 });
    expect(waits).toHaveLength(2);
  });

  it('throws at once when Retry-After is longer than maxRetryAfterSeconds', async () => {
    const { client, waits } = scripted([busy(429, '120')]);
    await expect(client.channels.list()).rejects.toMatchObject({ code: 'TooManyRequests' });
    expect(waits).toEqual([]);
  });

  it('does not retry other errors, and names a code it does not know UnknownError', async () => {
    const { client } = scripted([{ status: 418, body: { error: 'Teapot', description: 'short and stout' } }]);
    await expect(client.channels.list()).rejects.toMatchObject({ code: 'UnknownError', rawCode: 'Teapot', status: 418 });
    expect(requests).toBe(1);
  });

  it('fails an attempt that takes longer than timeoutMs with AviaryTimeoutError', async () => {
    const { client } = scripted(['hang'], { timeoutMs: 50 });
    const error = await client.channels.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AviaryTimeoutError);
    expect(error).toMatchObject({ method: 'channels.list', timeoutMs: 50 });
  });

  it('stops when the caller aborts, without calling it a time-out', async () => {
    const { client } = scripted(['hang']);
    const controller = new AbortController();
    const call = client.channels.list({}, { signal: controller.signal });
    controller.abort(new Error('the caller gave up'));
    await expect(call).rejects.toThrow('the caller gave up');
  });
});

forEachDialect('AviaryClient errors from a real server', (t) => {
  it('carries the parameter at fault (the README example)', async () => {
    const team = await t().f.team();
    const person = await t().f.person(team.id);
    const row = await t().f.app(team.id, person.id);
    const { token } = await t().f.install(row.id, person.id);
    const client = new AviaryClient({ baseUrl: t().url, token });
    await expect(client.channels.getInfo({ channelId: toChannelId('g:aaaaaaaaaaaaaaaa') })).rejects.toMatchObject({
      code: 'UnknownChannel',
      status: 400,
      parameter: 'channelId',
    });
  });
});
