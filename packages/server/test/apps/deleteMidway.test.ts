import { afterAll, expect, it } from 'vitest';
import { deleteApp } from '../../src/core/commands/apps.js';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { cliActor } from '../../src/core/audit/record.js';
import { openWidgetUrl } from '../../src/core/widgetUrl.js';
import { recordAttempts } from '../../src/events/delivery/recordAttempts.js';
import { judgeAttempt } from '../../src/events/delivery/verdict.js';
import type { WidgetEvent } from '@aviary/protocol';
import { onPostgres } from '../helpers/pgLocks.js';
import { gate, startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect } from '../helpers/server.js';
import { expectError, signedInPerson } from './harness.js';

/** An app deleted while another change that names it is under way: neither fails, and nothing of the app is left. */

const listeners: TestListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

forEachDialect(
  'an app deleted while an install waits for its listener',
  (t) => {
    it('refuses the install as UnknownApp and leaves no install, token or delivery of the app', async () => {
      const team = await t().f.team();
      const dev = await signedInPerson(t(), team.id);
      const alice = await signedInPerson(t(), team.id);
      const answer = gate();
      const listener = await startListener(() => ({ status: 200, body: '{}', after: answer.opened }));
      listeners.push(listener);
      const { app } = (await dev.call('apps.create', { name: 'Short-lived', listenerUrl: listener.url })).body;

      const installing = alice.request('POST', '/v1/apps.install', { appId: app.id });
      await listener.waitFor(1);
      await deleteApp(t().server.ctx, cliActor, { appId: app.id });
      answer.open();
      expectError(await installing, 404, 'UnknownApp');
      const db = t().testStore.store.db;
      for (const table of ['installs', 'app_tokens', 'events'] as const) {
        expect(await db.selectFrom(table).select('app_id').where('app_id', '=', app.id).execute()).toEqual([]);
      }
    });
  },
  // The listener answers when the test says: no time-out may come first on a loaded machine.
  { installTimeoutMs: 60_000 },
);

forEachDialect('an app deleted while its events are being delivered', (t) => {
  it('records the other apps’ attempts of the batch, and nothing of the deleted app', async () => {
    const team = await t().f.team();
    const [developer, alice] = [await t().f.person(team.id), await t().f.person(team.id)];
    const db = t().testStore.store.db;
    const apps = [];
    for (const name of ['Deleted', 'Kept']) {
      const app = await t().f.app(team.id, developer.id, { name, listenerUrl: 'https://app.example/events' });
      const { botUserId } = await t().f.bot(app.id);
      // Paused, so that the server's own worker leaves its events to the test.
      await db.updateTable('apps').set({ delivery_paused_at: 1 }).where('id', '=', app.id).execute();
      await sendMessage(t().server.ctx, { user: alice, appId: null }, { to: botUserId, text: `Hello ${name}` });
      apps.push(await db.selectFrom('apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow());
    }
    // Both apps' events claimed, attempted and answered: then, before the batch is recorded, the first app is deleted.
    const at = t().server.ctx.now();
    const attempts = [];
    for (const app of apps) {
      await db.updateTable('events').set({ claim_token: `claim of ${app.id}`, claimed_until: at + 60_000 }).where('app_id', '=', app.id).execute();
      const event = await db.selectFrom('events').selectAll().where('app_id', '=', app.id).executeTakeFirstOrThrow();
      const result = { kind: 'answered' as const, status: 200, headers: {}, body: Buffer.from('{}'), durationMs: 5 };
      attempts.push({ id: `at_${app.id}`, event, app, startedAt: at, finishedAt: at, result, verdict: judgeAttempt(result, at) });
    }
    await deleteApp(t().server.ctx, cliActor, { appId: apps[0]!.id });

    const recorded = await recordAttempts(t().server.ctx, attempts);
    expect(recorded.attempts.map((entry) => entry.fate)).toEqual(['delivered', 'delivered']);
    const kept = await db.selectFrom('event_attempts').select(['app_id', 'outcome']).where('app_id', 'in', apps.map((app) => app.id)).execute();
    expect(kept).toEqual([{ app_id: apps[1]!.id, outcome: 'delivered' }]);
    expect(await db.selectFrom('events').select('status').where('app_id', '=', apps[1]!.id).execute()).toEqual([{ status: 'delivered' }]);
  });
});

/**
 * PostgreSQL: an app deleted while a change records an event of it (a message to its bot, the open of
 * one of its widgets). The deletion has already deleted the app's events when the change records one;
 * that event must not outlive the app, nor make either change fail. The test holds the deletion at that
 * point by locking the bot's user row (which it updates next) from a session of its own, and lets it go
 * once the change has either finished or waits on the deletion (helpers/pgLocks.ts). SQLite's one writer
 * never interleaves them.
 */
onPostgres('an app deleted while an event of it is recorded', (suite) => {
  const t = () => suite().t;
  const holder = () => suite().holder;

  async function appWithBot() {
    const team = await t().f.team();
    const developer = await t().f.person(team.id);
    const alice = await t().f.person(team.id);
    const app = await t().f.app(team.id, developer.id, { listenerUrl: 'https://app.example/events' });
    const { botUserId } = await t().f.bot(app.id);
    return { alice, app, botUserId };
  }

  /** Deletes the app while `change` runs: the deletion is held at the bot's row, after it has locked the app and deleted its events. */
  const deleteDuring = (app: { id: string }, botUserId: string, change: () => Promise<unknown>) =>
    holder().interleave(
      { statement: 'select id from users where id = $1 for no key update', params: [botUserId], waitsAt: /^update "users"/ },
      () => deleteApp(t().server.ctx, cliActor, { appId: app.id }),
      change,
    );

  const eventsOf = (appId: string) => t().testStore.store.db.selectFrom('events').select('id').where('app_id', '=', appId).execute();

  it('a message to its bot: both succeed, and no event is left for the deleted app', async () => {
    const { alice, app, botUserId } = await appWithBot();
    const send = () => sendMessage(t().server.ctx, { user: alice, appId: null }, { to: botUserId, text: 'Are you still there?' });
    expect(await deleteDuring(app, botUserId, send)).toEqual({ first: 'done', second: 'done' });
    const db = t().testStore.store.db;
    expect(await db.selectFrom('apps').select('id').where('id', '=', app.id).execute()).toEqual([]);
    expect(await eventsOf(app.id)).toEqual([]);
    expect(await db.selectFrom('messages').select('text').where('to_id', '=', botUserId).execute()).toEqual([{ text: 'Are you still there?' }]);
  });

  it('a widget opened from it: both succeed, and the open is not recorded for the deleted app', async () => {
    const { alice, app, botUserId } = await appWithBot();
    const event = { name: 'client.pressButton', userId: alice.id, userName: 'Alice', chat: botUserId, chatName: 'Bot', button: 'appLauncherButton' } as unknown as WidgetEvent;
    let url: string | undefined;
    const open = async () => {
      url = await openWidgetUrl(t().server.ctx, { appId: app.id, url: 'https://app.example/widget', route: 'widget', event, client: 'desktop', widgetType: 'modal' });
    };
    expect(await deleteDuring(app, botUserId, open)).toEqual({ first: 'done', second: 'done' });
    expect(url).toMatch(/^https:\/\/app\.example\/widget\?/);
    expect(await eventsOf(app.id)).toEqual([]);
  });
});
