import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventAttempts } from '../../src/events/history/eventHistory.js';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { signedInPerson } from '../apps/harness.js';
import { closedPortUrl, startListener, type Responder, type TestListener } from '../events/listener.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { startDnsServer, type DnsAnswers, type TestDnsServer } from './dnsServer.js';

const adminHint = 'an administrator can allow it with AVIARY_ALLOWED_INTERNAL_HOSTS';
const addressRefused = (address: string, kind: string) => `the listener's address ${address} is internal (${kind}); ${adminHint}`;
const hostRefused = (host: string) => `the listener's host "${host}" resolves to an internal address; ${adminHint}`;

/** Listener URL hosts that all reach this machine's loopback, each with the address and kind the refusal names. */
const loopbackSpellings: Array<[string, string, string]> = [
  ['127.0.0.1', '127.0.0.1', 'loopback'],
  ['0x7f.1', '127.0.0.1', 'loopback'],
  ['2130706433', '127.0.0.1', 'loopback'],
  ['017700000001', '127.0.0.1', 'loopback'],
  ['127.1', '127.0.0.1', 'loopback'],
  ['0177.0.0.1', '127.0.0.1', 'loopback'],
  ['0x7f000001', '127.0.0.1', 'loopback'],
  ['127.0.0.1.', '127.0.0.1', 'loopback'],
  ['[::ffff:127.0.0.1]', '::ffff:7f00:1', 'loopback'],
  ['[::ffff:7f00:1]', '::ffff:7f00:1', 'loopback'],
  ['[::1]', '::1', 'loopback'],
  ['[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1', 'loopback'],
  ['0.0.0.0', '0.0.0.0', 'this network'],
  ['[::]', '::', 'unspecified'],
];

/** Internal addresses that would not answer from here: a refusal must come at once, not after a connect time-out. */
const unreachableInternal: Array<[string, string]> = [
  ['169.254.169.254', 'link-local'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.0.1', 'private'],
  ['100.64.0.1', 'shared (carrier-grade NAT)'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'documentation'],
  ['[fd00::1]', 'unique-local'],
  ['[fe80::1]', 'link-local'],
  ['[ff02::1]', 'multicast'],
];

/** Per name: the addresses to answer its n-th A/AAAA question with. */
type Records = Record<string, (index: number) => string[]>;
const dnsFor = (records: Records): DnsAnswers => (query, index) => records[query.name]?.(index);

for (const dialect of dialects) {
  /** A team's developer with an app at `listenerUrl` (stored as given: the check under test is the one at connect time). */
  async function appAt(t: TestServer, listenerUrl: string) {
    const team = await t.f.team();
    const dev = await t.f.person(team.id);
    const app = await t.f.app(team.id, dev.id, { listenerUrl });
    return { app, person: await signedInPerson(t, team.id) };
  }

  async function install(t: TestServer, listenerUrl: string) {
    const { app, person } = await appAt(t, listenerUrl);
    const answer = await person.request('POST', '/v1/apps.install', { appId: app.id });
    return { app, person, answer };
  }

  /** Enqueues an event and waits until the worker has made (and recorded) its first attempt; a retry is seconds away. */
  async function firstAttempt(t: TestServer, app: { id: string; developer_id: string }) {
    const { ctx } = t.server;
    const { eventId } = (await enqueueEvent(ctx.db, { appId: app.id, userId: app.developer_id, event: { name: 'app.uninstall', userId: app.developer_id } }, ctx.now()))!;
    await ctx.events.idle();
    const [attempt] = await listEventAttempts(ctx.db, eventId);
    return attempt;
  }

  describe(`listener URLs at internal addresses are refused [${dialect}]`, () => {
    let t: TestServer;
    let dns: TestDnsServer;
    let listener: TestListener;
    const port = () => new URL(listener.url).port;

    beforeAll(async () => {
      dns = await startDnsServer(dnsFor({ 'evil.test': () => ['127.0.0.1'], 'mixed.test': () => ['127.0.0.1', '::1'] }));
      t = await startTestServer(dialect, { allowedInternalHosts: [], dnsServers: [dns.address], installTimeoutMs: 2_000 }, { events: { answerTimeoutMs: 2_000, pollIntervalMs: 50 } });
      listener = await startListener();
    });
    afterAll(async () => {
      await listener.close();
      await stopTestServer(t);
      await dns.close();
    });

    it('refuses every spelling of loopback, for app.install and for events, and the listener there receives nothing', async () => {
      const refused = await Promise.all(
        loopbackSpellings.map(async ([host, address, kind]) => {
          const { app, answer } = await install(t, `http://${host}:${port()}/events`);
          expect(answer.status, host).toBe(502);
          expect(answer.body, host).toEqual({ error: 'InstallFailed', description: `"${app.name}" was not installed: ${addressRefused(address, kind)}. Nothing was sent to it.` });
          return { app, host, address, kind };
        }),
      );
      for (const { app, host, address, kind } of refused) {
        const attempt = await firstAttempt(t, app);
        expect({ host, ...attempt }).toMatchObject({ host, status: null, reason: 'connection_failed', outcome: 'retry', error: addressRefused(address, kind), responseSnippet: null });
      }
      expect(listener.received).toEqual([]);
    });

    it('says the same whether anything listens at the address or not', async () => {
      const open = await install(t, listener.url);
      const closed = await install(t, await closedPortUrl());
      const description = (result: typeof open) => result.answer.body.description.replace(result.app.name, 'the app');
      expect(description(open)).toBe(description(closed));
      expect(description(open)).toBe(`"the app" was not installed: ${addressRefused('127.0.0.1', 'loopback')}. Nothing was sent to it.`);
      const attempts = [await firstAttempt(t, open.app), await firstAttempt(t, closed.app)];
      expect(attempts.map((attempt) => attempt.error)).toEqual([addressRefused('127.0.0.1', 'loopback'), addressRefused('127.0.0.1', 'loopback')]);
      expect(listener.received).toEqual([]);
    });

    it('refuses the cloud metadata address and other internal ranges before connecting: the policy error, not a time-out', async () => {
      for (const [host, kind] of unreachableInternal) {
        const address = host.replace(/^\[(.*)\]$/, '$1');
        const { app, answer } = await install(t, `http://${host}/latest/meta-data/`);
        expect(answer.body.description, host).toBe(`"${app.name}" was not installed: ${addressRefused(address, kind)}. Nothing was sent to it.`);
        const attempt = await firstAttempt(t, app);
        // The policy's refusal, not the time-out or failure a connection to an unreachable address would end in.
        expect(attempt, host).toMatchObject({ reason: 'connection_failed', error: addressRefused(address, kind) });
      }
    });

    it('checks the address a name resolves to when connecting, through the resolver, and refuses it if any of its addresses is internal', async () => {
      const asked = dns.queries.length;
      for (const host of ['evil.test', 'mixed.test']) {
        const { app, answer } = await install(t, `http://${host}:${port()}/events`);
        expect(answer.body.description, host).toBe(`"${app.name}" was not installed: ${hostRefused(host)}. Nothing was sent to it.`);
        expect((await firstAttempt(t, app)).error).toBe(hostRefused(host));
      }
      expect(dns.queries.slice(asked).filter((query) => query.type === 'A').map((query) => query.name)).toEqual(['evil.test', 'evil.test', 'mixed.test', 'mixed.test']);
      expect(listener.received).toEqual([]);
    });
  });

  describe(`allowed internal hosts, DNS rebinding and redirects [${dialect}]`, () => {
    let t: TestServer;
    let dns: TestDnsServer;
    const listeners: TestListener[] = [];
    /** Answers 200 and closes the connection, so that every request connects (and resolves) afresh. */
    const answerAndClose: Responder = () => ({ status: 200, headers: { connection: 'close' }, body: '{}' });
    const listen = async (respond: Responder = answerAndClose) => {
      const listener = await startListener(respond);
      listeners.push(listener);
      return listener;
    };

    beforeAll(async () => {
      dns = await startDnsServer(
        dnsFor({
          // Allowed by name: never checked, so its second, not allowed, address does not matter.
          'allowed.test': () => ['127.0.0.1', '127.0.0.2'],
          // 127.0.0.1 is allowed by address, 127.0.0.3 is not: one internal address refuses the name.
          'both.test': () => ['127.0.0.1', '127.0.0.3'],
          // First the allowed address, then, once the app is installed, another internal one.
          'rebind.test': (index) => (index === 0 ? ['127.0.0.1'] : ['127.0.0.2']),
        }),
      );
      t = await startTestServer(dialect, { allowedInternalHosts: ['allowed.test', '127.0.0.1'], dnsServers: [dns.address], installTimeoutMs: 2_000 }, { events: { answerTimeoutMs: 2_000, pollIntervalMs: 50 } });
    });
    afterAll(async () => {
      for (const listener of listeners) await listener.close();
      await stopTestServer(t);
      await dns.close();
    });

    it('delivers to an allowed name whatever it resolves to, and to an allowed address', async () => {
      const listener = await listen();
      const port = new URL(listener.url).port;
      for (const host of ['allowed.test', 'ALLOWED.test', '127.0.0.1', '2130706433']) {
        const { answer } = await install(t, `http://${host}:${port}/events`);
        expect(answer.status, `${host}: ${JSON.stringify(answer.body)}`).toBe(200);
      }
      expect(listener.received.map((request) => request.body.name)).toEqual(['app.install', 'app.install', 'app.install', 'app.install']);
    });

    it('refuses a name when one of its addresses is internal and not allowed', async () => {
      const listener = await listen();
      const { app, answer } = await install(t, `http://both.test:${new URL(listener.url).port}/events`);
      expect(answer.body.description).toBe(`"${app.name}" was not installed: ${hostRefused('both.test')}. Nothing was sent to it.`);
      expect(listener.received).toEqual([]);
    });

    it('refuses a name that rebinds to an internal address after it was delivered to (DNS rebinding)', async () => {
      const listener = await listen();
      const { app, answer } = await install(t, `http://rebind.test:${new URL(listener.url).port}/events`);
      expect(answer.status).toBe(200);
      expect(listener.received.map((request) => request.body.name)).toEqual(['app.install']);
      const attempt = await firstAttempt(t, app);
      expect(attempt).toMatchObject({ reason: 'connection_failed', outcome: 'retry', error: hostRefused('rebind.test') });
      expect(listener.received).toHaveLength(1);
      expect(dns.queries.filter((query) => query.name === 'rebind.test' && query.type === 'A')).toHaveLength(2);
    });

    it('never follows a redirect, not even to an allowed address', async () => {
      const target = await listen();
      const redirecting = await listen(() => ({ status: 302, headers: { location: target.url }, body: '' }));
      const { app, answer } = await install(t, redirecting.url);
      expect(answer.body.description).toBe(`"${app.name}" was not installed: its event listener answered HTTP 302 to app.install. Nothing was installed; try again later or tell the app's developer.`);
      const attempt = await firstAttempt(t, app);
      expect(attempt).toMatchObject({ status: 302, reason: 'http_error', outcome: 'failed' });
      expect(redirecting.received).toHaveLength(2);
      expect(target.received).toEqual([]);
    });
  });
}
