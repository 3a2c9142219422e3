import { describe, expect, it } from 'vitest';
import { outboxStats, OTHER_APPS } from '../../src/events/outbox/stats.js';
import { newEventId } from '../../src/events/ids.js';
import type { EventStatus } from '../../src/store/schema.js';
import type { Db } from '../../src/store/store.js';
import { http } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { factories, teamWithApp } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';
import { createTestStore } from '../helpers/store.js';

/** The samples of one metric in a text exposition: each line's labels (as written) and value. */
function samples(text: string, name: string): Array<{ labels: string; value: number }> {
  const line = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`);
  return text.split('\n').flatMap((row) => {
    const match = line.exec(row);
    return match ? [{ labels: match[1] ?? '', value: Number(match[2]) }] : [];
  });
}

const sample = (text: string, name: string, labels = '') => samples(text, name).find((found) => found.labels === labels)?.value;

/** An app of a new team, and a way to put events of it in the outbox as the delivery engine leaves them. */
async function appWithEvents(db: Db) {
  const f = factories(db);
  const team = await f.team();
  const developer = await f.person(team.id);
  const app = await f.app(team.id, developer.id);
  const add = (status: EventStatus, dueAt: number | null = null) =>
    db
      .insertInto('events')
      .values({
        id: newEventId(Date.now()),
        app_id: app.id,
        user_id: developer.id,
        name: 'chat.receiveMessage',
        payload: '{}',
        synchronous: 0,
        status,
        retry_num: 0,
        next_attempt_at: dueAt,
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
  const pause = () => db.updateTable('apps').set({ delivery_paused_at: Date.now() }).where('id', '=', app.id).execute();
  return { app, add, pause };
}

forEachDialect('GET /metrics', (t) => {
  const scrape = async (headers: Record<string, string> = {}) => {
    const answer = await fetch(`${t().url}/metrics`, { headers });
    return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
  };

  it('counts and times requests by route and status, and reports the process', async () => {
    const { people } = await teamWithApp(t().testStore.store.db, 1);
    for (let i = 0; i < 2; i++) await t().call('users.getInfo', { query: { token: people[0].token } });
    await t().call('users.getInfo', { query: { token: 'nope' } });
    const page = await http(t().url, 'GET', '/dev/a:whatever');
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'aviary_http_requests_total', '{route="/v1/users.getInfo",method="GET",status="200"}')).toBe(2);
    expect(sample(text, 'aviary_http_requests_total', '{route="/v1/users.getInfo",method="GET",status="403"}')).toBe(1);
    expect(sample(text, 'aviary_http_requests_total', `{route="/dev/:app",method="GET",status="${page.status}"}`)).toBe(1);
    expect(sample(text, 'aviary_http_request_duration_seconds_count', '{route="/v1/users.getInfo",method="GET"}')).toBe(3);
    expect(sample(text, 'aviary_http_request_duration_seconds_bucket', '{le="+Inf",route="/v1/users.getInfo",method="GET"}')).toBe(3);
    for (const processMetric of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(samples(text, processMetric)).toHaveLength(1);
    }
  });

  it('keeps one series for whatever is unknown, however many made-up methods, paths and verbs come', async () => {
    for (let i = 0; i < 40; i++) {
      await t().call(`made.up${i}`);
      await http(t().url, 'GET', `/nothing/here/${i}`);
      await http(t().url, i % 2 ? 'PROPFIND' : 'MKCOL', `/v1/chat.sendMessage?n=${i}`);
      await http(t().url, 'GET', `/dev/a:${i}`);
    }
    const { text } = await scrape();
    const series = samples(text, 'aviary_http_requests_total').map((found) => found.labels);
    expect(series.join('\n')).not.toMatch(/made\.up|nothing|PROPFIND|MKCOL|a:\d/);
    expect(series).toContain('{route="other",method="GET",status="404"}');
    expect(series).toContain('{route="other",method="other",status="405"}');
    // The first test's series, and at most a handful more.
    expect(series.length).toBeLessThan(10);
  });

  it('reports how many WebSockets are open, as the stream gateway counts them', async () => {
    expect(sample((await scrape()).text, 'aviary_open_websockets')).toBe(0);
    let open = 7;
    t().server.ctx.metrics.countOpenWebSockets(() => open);
    expect(sample((await scrape()).text, 'aviary_open_websockets')).toBe(7);
    open = 2;
    expect(sample((await scrape()).text, 'aviary_open_websockets')).toBe(2);
  });

  it('reports events by app and status from the store', async () => {
    const paused = await appWithEvents(t().testStore.store.db);
    // A paused app: the delivery worker leaves its events alone, and its waiting is not lag.
    await paused.pause();
    await paused.add('pending', Date.now() - 60_000);
    await paused.add('delivered');
    await paused.add('delivered');
    await paused.add('failed');
    const { text } = await scrape();
    const ofApp = (status: string) => sample(text, 'aviary_outbox_events', `{app_id="${paused.app.id}",status="${status}"}`);
    expect([ofApp('pending'), ofApp('delivered'), ofApp('failed')]).toEqual([1, 2, 1]);
    expect(sample(text, 'aviary_outbox_lag_seconds')).toBe(0);
  });
});

forEachDialect(
  'GET /metrics with AVIARY_METRICS_TOKEN',
  (t) => {
    it('answers only a request that carries the token', async () => {
      const scrape = (authorization?: string) => http(t().url, 'GET', '/metrics', { headers: authorization ? { authorization } : {} });
      const refused = await scrape();
      expect([refused.status, refused.body.error]).toEqual([403, 'InvalidToken']);
      expect(refused.body.description).toMatch(/AVIARY_METRICS_TOKEN/);
      expect((await scrape('Bearer not-the-token')).status).toBe(403);
      expect((await scrape('Bearer metrics-token-for-the-test')).status).toBe(200);
    });
  },
  { metricsToken: 'metrics-token-for-the-test' },
);

for (const dialect of dialects) {
  describe(`outbox figures for the metrics [${dialect}]`, () => {
    it('measures the lag from the oldest due event of an unpaused app, and keeps at most maxApps apps by name', async () => {
      const testStore = await createTestStore(dialect);
      try {
        const { db } = testStore.store;
        const now = Date.now();
        const [busy, failing, quiet, paused] = await Promise.all([0, 1, 2, 3].map(() => appWithEvents(db)));
        await busy.add('pending', now - 5_000);
        await busy.add('pending', now - 1_000);
        await busy.add('pending', now + 60_000);
        await failing.add('failed');
        await quiet.add('delivered');
        await paused.pause();
        await paused.add('pending', now - 3_600_000);

        const stats = await outboxStats(db, now, 2);
        expect(stats.lagSeconds).toBe(5);
        const counts = Object.fromEntries(stats.byApp.map(({ appId, status, count }) => [`${appId} ${status}`, count]));
        // Ranked by pending, then failed: the paused app (1 pending) and the busy one keep their names.
        expect(counts).toEqual({
          [`${busy.app.id} pending`]: 3,
          [`${busy.app.id} failed`]: 0,
          [`${busy.app.id} delivered`]: 0,
          [`${paused.app.id} pending`]: 1,
          [`${paused.app.id} failed`]: 0,
          [`${paused.app.id} delivered`]: 0,
          [`${OTHER_APPS} pending`]: 0,
          [`${OTHER_APPS} failed`]: 1,
          [`${OTHER_APPS} delivered`]: 1,
        });
        expect((await outboxStats(db, now - 10_000, 2)).lagSeconds).toBe(0);
      } finally {
        await testStore.destroy();
      }
    });
  });
}
