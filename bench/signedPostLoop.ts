// The baseline of event delivery: the least it can cost to sign the outbox's events and POST them to
// the app listeners, with nothing else: no claim, no record, no retry. Run as a process of its own:
// `node --import tsx signedPostLoop.ts <data dir> <concurrency> <app id>…`; prints how many it sent.
import SQLite from 'better-sqlite3';
import { Agent } from 'undici';
import { listenerHeaders } from '../packages/server/src/events/delivery/attempts.js';
import { sqliteFile } from '../packages/server/src/store/store.js';

const [dataDir, concurrencyText, ...appIds] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const db = new SQLite(sqliteFile(dataDir), { readonly: true });
const apps = new Map(
  appIds.map((id) => {
    const app = db.prepare('select id, secret, listener_url from apps where id = ?').get(id) as { id: string; secret: string; listener_url: string };
    const url = new URL(app.listener_url);
    return [id, { ...app, origin: url.origin, path: url.pathname + url.search }];
  }),
);
const events = db
  .prepare(`select id, app_id, user_id, payload from events where app_id in (${appIds.map(() => '?').join(', ')}) order by id`)
  .all(...appIds) as Array<{ id: string; app_id: string; user_id: string; payload: string }>;
db.close();

const agent = new Agent({ connections: concurrency });
let next = 0;
async function sender(): Promise<void> {
  while (next < events.length) {
    const event = events[next++];
    const app = apps.get(event.app_id)!;
    const headers = listenerHeaders({ appId: app.id, appSecret: app.secret, userId: event.user_id, eventId: event.id, retryNum: 0 }, event.payload, Date.now());
    const response = await agent.request({ origin: app.origin, path: app.path, method: 'POST', headers, body: event.payload });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`the listener answered ${response.statusCode}`);
  }
}
await Promise.all(Array.from({ length: concurrency }, sender));
await agent.close();
process.stdout.write(`sent ${events.length}\n`);
