import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEventListener } from '../packages/sdk/src/index.js';
import { createApp, enableBot } from '../packages/server/src/core/commands/apps.js';
import { enqueueEvent } from '../packages/server/src/events/outbox/enqueue.js';
import { openStore } from '../packages/server/src/store/store.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

export interface ListeningApp {
  url: string;
  server: Server;
  /** Called for every verified event. */
  onEvent: (handler: (name: string, receivedAt: number) => void) => void;
  close(): Promise<void>;
}

/** A real app listener on loopback, built with the SDK: every event's token is verified. */
export async function startBenchListener(apps: Array<{ id: string; secret: string }>): Promise<ListeningApp> {
  let handler: (name: string, receivedAt: number) => void = () => undefined;
  const listeners = new Map(
    apps.map((app) => [
      app.id,
      createEventListener({ appId: app.id, appSecret: app.secret, onEvent: async (event) => handler(event.name, performance.now()) }),
    ]),
  );
  const server = createServer((req, res) => listeners.get(new URL(req.url!, 'http://x').searchParams.get('app')!)!.node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    server,
    onEvent: (next) => {
      handler = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Apps of the bench team pointing at one listener, each with `perApp` events waiting in the outbox. */
export async function queueBenchEvents(dataDir: string, teamId: string, developerId: string, appCount: number, perApp: number) {
  const store = openStore({ dataDir });
  const now = Date.now();
  const apps = [];
  for (let i = 0; i < appCount; i++) apps.push(await createApp(storeContext(store.db, () => now), cliActor, { developer: { id: developerId, team_id: teamId }, name: `Events ${i}` }));
  const listener = await startBenchListener(apps);
  for (const app of apps) {
    await store.db.updateTable('apps').set({ listener_url: `${listener.url}?app=${encodeURIComponent(app.id)}` }).where('id', '=', app.id).execute();
    await store.db.transaction().execute(async (tx) => {
      for (let i = 0; i < perApp; i++) {
        await enqueueEvent(tx, { appId: app.id, userId: developerId, event: { name: 'app.uninstall', userId: developerId } }, now);
      }
    });
  }
  await store.close();
  return { listener, total: appCount * perApp, appIds: apps.map((app) => app.id) };
}

/**
 * The baseline for (e): signs and POSTs the apps' events (all of them, whatever their status) to the
 * same listener from a process of its own, `concurrency` at a time, as a bare loop would; resolves when it is done.
 */
export function runSignedPostLoop(dataDir: string, concurrency: number, appIds: string[]): Promise<void> {
  const script = fileURLToPath(new URL('./signedPostLoop.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, String(concurrency), ...appIds], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the signed-POST loop exited with ${code}`)))));
}

/** Makes the apps' events pending and unattempted again, for another round of the same deliveries. */
export async function requeueBenchEvents(dataDir: string, appIds: string[]): Promise<void> {
  const store = openStore({ dataDir });
  const now = Date.now();
  await store.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('event_attempts').where('app_id', 'in', appIds).execute();
    await tx
      .updateTable('events')
      .set({ status: 'pending', retry_num: 0, next_attempt_at: now, delivered_at: null, last_reason: null, last_error: null, claimed_until: null, claim_token: null })
      .where('app_id', 'in', appIds)
      .execute();
  });
  await store.close();
}

/** The demo-like app whose bot receives `chat.receiveMessage`, listening on its own loopback listener. */
export async function botWithListener(dataDir: string, teamId: string, developerId: string) {
  const store = openStore({ dataDir });
  const now = Date.now();
  const app = await createApp(storeContext(store.db, () => now), cliActor, { developer: { id: developerId, team_id: teamId }, name: 'Latency' });
  const listener = await startBenchListener([app]);
  await store.db.updateTable('apps').set({ listener_url: `${listener.url}?app=${encodeURIComponent(app.id)}` }).where('id', '=', app.id).execute();
  const { botUserId } = await enableBot(storeContext(store.db, () => now), cliActor, { appId: app.id });
  await store.close();
  return { listener, botUserId };
}
