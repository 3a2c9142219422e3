import type { AnyEvent } from '@aviary/protocol';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEventListener, verifyEventToken } from '@aviary/sdk';
import { describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { paddedList, powerOfTwoChunks } from '../../src/events/outbox/sqlLists.js';
import { signEventToken } from '../../src/events/signing/tokens.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer } from '../helpers/server.js';
import { gate, startListener, type TestListener } from '../helpers/listener.js';
import { captureLog } from '../helpers/logs.js';
import { createLog } from '../../src/log.js';

for (const dialect of dialects) {
  describe(`delivering a backlog [${dialect}]`, () => {
    it('widens the lane of a listener that answers fast, never that of one that hangs, and records every attempt with its event', async () => {
      // The server says when it has recorded an attempt: the hung lane keeps the worker from falling idle.
      const log = captureLog();
      const t = await startTestServer(dialect, {}, { log: createLog({ logLevel: 'info' }, log.destination), events: { answerTimeoutMs: 8_000, leaseMs: 20_000, pollIntervalMs: 50 } });
      // The fast listener answers its first events at once; later ones wait until it has more than one
      // narrow lane's worth (4) open at once, which only a widened lane can give it.
      const widened = gate();
      const fast: TestListener = await startListener((_request, index) => {
        if (fast.open() > 4) widened.open();
        return { status: 200, body: '{}', after: index < 8 ? undefined : widened.opened };
      });
      const hanging = await startListener(() => 'hang');
      try {
        const team = await t.f.team();
        const developer = await t.f.person(team.id);
        const quick = await t.f.app(team.id, developer.id, { listenerUrl: fast.url });
        const stuck = await t.f.app(team.id, developer.id, { listenerUrl: hanging.url });
        const { ctx } = t.server;
        const event = { name: 'app.uninstall', userId: developer.id } as const;
        const ids: string[] = [];
        await ctx.db.transaction().execute(async (tx) => {
          for (let i = 0; i < 20; i++) await enqueueEvent(tx, { appId: stuck.id, userId: developer.id, event }, ctx.now());
          for (let i = 0; i < 400; i++) ids.push((await enqueueEvent(tx, { appId: quick.id, userId: developer.id, event: { ...event, n: i } as AnyEvent }, ctx.now()))!.eventId);
        });
        ctx.events.wake();

        await fast.waitFor(400, 20_000);
        await log.waitForCount((line) => line.msg === 'event delivered' && line.appId === quick.id, 400);
        const rows = await ctx.db.selectFrom('events').selectAll().where('app_id', '=', quick.id).execute();
        expect(rows).toHaveLength(400);
        expect(rows.every((row) => row.status === 'delivered' && row.claim_token === null)).toBe(true);
        // Each event delivered once, each with its one attempt recorded.
        expect(new Set(fast.received.map((r) => r.headers['x-service-event-id'])).size).toBe(400);
        const attempts = await ctx.db.selectFrom('event_attempts').selectAll().where('app_id', '=', quick.id).execute();
        expect(attempts.map((a) => a.event_id).sort()).toEqual([...ids].sort());
        expect(attempts.every((a) => a.outcome === 'delivered' && a.status === 200 && a.response_snippet === '{}')).toBe(true);
        const deliveredAt = new Map(rows.map((row) => [row.id, row.delivered_at]));
        for (const attempt of attempts) expect(deliveredAt.get(attempt.event_id)).toBeGreaterThanOrEqual(attempt.started_at);

        // The fast listener was given more than the first 4 slots; the hung one never more than 4.
        expect(fast.maxOpen()).toBeGreaterThan(4);
        expect(hanging.maxOpen()).toBe(4);
        const leased = await ctx.db.selectFrom('events').select('id').where('app_id', '=', stuck.id).where('claim_token', 'is not', null).execute();
        expect(leased).toHaveLength(4);
      } finally {
        await hanging.close();
        await fast.close();
        await stopTestServer(t);
      }
    });
  });
}

describe('event tokens signed with node:crypto', () => {
  it('are HS256 JWTs that the SDK accepts, and that a wrong secret does not verify', async () => {
    const now = Date.now();
    const secret = 'app-secret-0123456789abcdefghijklmnopqrstuv';
    const body = '{"name":"app.uninstall","userId":"u:user000000000001"}';
    const token = signEventToken(secret, { appId: 'a:app0000000000001', userId: 'u:user000000000001', jti: 'ev_1', route: 'listener', content: body }, 600, now);
    const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ appId: 'a:app0000000000001', userId: 'u:user000000000001', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 600, jti: 'ev_1', route: 'listener', sha256: createHash('sha256').update(body).digest('base64url') });
    await expect(verifyEventToken(token, { appId: 'a:app0000000000001', appSecret: secret, userId: 'u:user000000000001' })).resolves.toMatchObject({ jti: 'ev_1' });
    await expect(verifyEventToken(token, { appId: 'a:app0000000000001', appSecret: `${secret}x` })).rejects.toMatchObject({ reason: 'signature' });
  });

  it('reach an SDK listener over HTTP', async () => {
    const secret = 'another-app-secret-0123456789abcdefghijkl';
    const seen: string[] = [];
    const listener = createEventListener({ appId: 'a:app0000000000002', appSecret: secret, onEvent: (_event, ctx) => void seen.push(ctx.eventId) });
    const server = createServer(listener.node);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const body = JSON.stringify({ name: 'app.uninstall', userId: 'u:user000000000002' });
      const token = signEventToken(secret, { appId: 'a:app0000000000002', userId: 'u:user000000000002', jti: 'ev_2', route: 'listener', content: body }, 600, Date.now());
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-event-token': token, 'x-service-event-id': 'ev_2' },
        body,
      });
      expect(response.status).toBe(200);
      expect(seen).toEqual(['ev_2']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('statement lists', () => {
  it('pads id lists to a power of two and inserts rows in power-of-two chunks, so few SQL texts are prepared', () => {
    expect(paddedList([])).toEqual([]);
    expect(paddedList(['a'])).toEqual(['a']);
    expect(paddedList(['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'c']);
    expect(paddedList(Array.from({ length: 17 }, (_, i) => i))).toHaveLength(32);
    const rows = Array.from({ length: 1_300 }, (_, i) => i);
    const chunks = powerOfTwoChunks(rows, 512);
    expect(chunks.map((chunk) => chunk.length)).toEqual([512, 512, 256, 16, 4]);
    expect(chunks.flat()).toEqual(rows);
    expect(powerOfTwoChunks([], 512)).toEqual([]);
  });
});
