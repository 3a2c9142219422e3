/**
 * The app layer's middleware (`app.use`) against a real Aviary (SQLite) on loopback: a logger that sees
 * every event and its answer, an auth check that refuses a person without calling the handler, and a
 * tenant lookup whose result the handler reads from `ctx.state`.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sessionFor, type SignedIn } from '../../server/test/client/harness.js';
import { startTestServer, stopTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { createApp, type AviaryApp } from '../src/index.js';

let t: TestServer;
let listenerServer: Server;
let app: AviaryApp;
let appId: string;
let alice: SignedIn;
let mallory: SignedIn;
const logged: string[] = [];

beforeAll(async () => {
  t = await startTestServer('sqlite');
  let route: RequestListener = (_req, res) => res.writeHead(503).end();
  listenerServer = createServer((req, res) => route(req, res));
  await new Promise<void>((resolve) => listenerServer.listen(0, '127.0.0.1', resolve));
  const team = await t.f.team();
  const alicePerson = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const malloryPerson = await t.f.person(team.id, { firstName: 'Mallory', lastName: 'Mole' });
  const row = await t.f.app(team.id, alicePerson.id, {
    listenerUrl: `http://127.0.0.1:${(listenerServer.address() as AddressInfo).port}/`,
    integrations: { slashCommands: [{ name: 'tenant', action: { type: 'sendEvent' } }], previewDomains: [] },
  });
  appId = row.id;
  alice = await sessionFor(t, alicePerson);
  mallory = await sessionFor(t, malloryPerson);
  const tenants = new Map([[alicePerson.id, 'Kestrel Labs']]);

  app = createApp({ appId: row.id, appSecret: row.secret, baseUrl: t.url, logger: { warn: () => undefined } });
  app
    .use(async (ctx, next) => {
      const answer = await next();
      logged.push(`${ctx.event.name} → ${JSON.stringify(answer ?? null)}`);
    })
    .use(async (ctx, next) => {
      // Installs pass: the person is not anyone's tenant yet. Everything else needs one.
      if (ctx.event.name === 'app.install') return next();
      const tenant = tenants.get(ctx.event.userId);
      if (tenant === undefined) return { text: 'You are not a customer' };
      ctx.state.tenant = tenant;
      await next();
    });
  app.command('tenant', (_event, ctx) => ({ text: `Tenant: ${String(ctx.state.tenant)}` }));
  route = app.listener.node;
});

afterAll(async () => {
  await new Promise((resolve) => listenerServer?.close(resolve));
  if (t) await stopTestServer(t);
});

it('runs every middleware around the handler, in order: the handler reads what one found, and the answer stays the handler’s', async () => {
  expect((await alice.call('apps.install', { appId: appId })).body).toEqual({ installed: true });
  const answer = await alice.call('chat.sendFromComposer', { to: alice.user.id, text: '/tenant' });
  expect(answer.body.answer).toEqual({ kind: 'toast', text: 'Tenant: Kestrel Labs' });
  expect(logged).toEqual(['app.install → null', 'client.slashCommand → {"text":"Tenant: Kestrel Labs"}']);
});

it('lets a middleware answer instead of the handler, which then never runs', async () => {
  expect((await mallory.call('apps.install', { appId: appId })).body).toEqual({ installed: true });
  const answer = await mallory.call('chat.sendFromComposer', { to: mallory.user.id, text: '/tenant' });
  expect(answer.body.answer).toEqual({ kind: 'toast', text: 'You are not a customer' });
  // The logger's next() resolved with the inner middleware's refusal.
  expect(logged.at(-1)).toBe('client.slashCommand → {"text":"You are not a customer"}');
});

it('refuses what is not a middleware, and next() called twice', async () => {
  expect(() => app.use('log' as never)).toThrow(/needs a function/);
  const { runMiddleware } = await import('../src/app/middleware.js');
  await expect(
    runMiddleware(
      [
        async (_ctx, next) => {
          await next();
          await next();
        },
      ],
      {},
      async () => 'answer',
    ),
  ).rejects.toThrow(/next\(\) was called twice/);
});
