import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { recordInstall, createApp } from '../packages/server/src/core/commands/apps.js';
import { createChannel } from '../packages/server/src/core/commands/channels.js';
import { createPerson, createTeam } from '../packages/server/src/core/commands/people.js';
import { newMessageUid } from '../packages/server/src/store/ids.js';
import { openStore, sqliteFile } from '../packages/server/src/store/store.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

export interface BenchData {
  teamId: string;
  /** The first person: the apps' developer. */
  developerId: string;
  tokens: string[];
  channelId: string;
  /** A direct chat holding `historySize` messages: its reader's token and the other person's id. */
  history: { token: string; chat: string; uids: string[] };
}

/** A team of ten who installed one app, a channel of all ten, and a direct chat with a long history. */
export async function seedBenchData(dataDir: string, historySize: number): Promise<BenchData> {
  const store = openStore({ dataDir });
  await store.migrate();
  const db = store.db;
  const now = Date.now();
  const team = await createTeam(storeContext(db, () => now), cliActor, { name: 'Bench' });
  const people = [];
  for (let i = 0; i < 10; i++) {
    people.push(await createPerson(storeContext(db, () => now), cliActor, { teamId: team.id, email: `bench${i}@example.test`, firstName: 'Bench', lastName: `${i}` }));
  }
  const app = await createApp(storeContext(db, () => now), cliActor, { developer: { id: people[0].id, team_id: team.id }, name: 'Bench' });
  const tokens = [];
  for (const person of people) tokens.push((await recordInstall(storeContext(db, () => now), { id: person.id }, { appId: app.id })).token);
  const { channel } = await createChannel(storeContext(db, () => now), { user: people[0], appId: null }, { name: 'bench', type: 'public', members: people.slice(1).map((p) => p.id) });
  await store.close();

  const [reader, other] = people;
  const uids = fillDirectChat(dataDir, team.id, reader.id, other.id, historySize, now);
  return { teamId: team.id, developerId: people[0].id, tokens, channelId: channel.id, history: { token: tokens[0], chat: other.id, uids } };
}

/** Bulk insert straight into SQLite: a million messages through HTTP would measure the seeding, not the reads. */
function fillDirectChat(dataDir: string, teamId: string, a: string, b: string, count: number, now: number): string[] {
  const db = new SQLite(sqliteFile(dataDir));
  const chatKey = [a, b].sort().join('|');
  const insert = db.prepare(
    `insert into messages (uid, chat_key, team_id, from_user_id, to_id, timestamp, text) values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const sample: string[] = [];
  const start = now - count * 10;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = start + i * 10;
      const uid = newMessageUid(at);
      insert.run(uid, chatKey, teamId, i % 2 ? a : b, i % 2 ? b : a, at, `message ${i} of the long history`);
      if (i % 997 === 0) sample.push(uid);
    }
  })();
  db.close();
  return sample;
}

export const baselineDir = (dataDir: string) => join(dataDir, 'baseline');
