// `aviary team export` of a large team against a small one, then `aviary team import` of that export into
// a fresh store: the wall time and the peak RSS of each CLI process (GNU time's %M), so that 1,000,000
// messages show that both hold pages and batches, not the history.
// `npx tsx bench/teamExport.ts [messages]` (default 1,000,000; SQLite). It builds the CLI first when stale.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPerson, createTeam } from '../packages/server/src/core/commands/people.js';
import { newMessageUid } from '../packages/server/src/store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../packages/server/src/store/rows/messages.js';
import { openStore } from '../packages/server/src/store/store.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const entry = join(repoRoot, 'packages/server/bin/aviary.js');
const large = Number(process.argv[2] ?? 1_000_000);
const small = 1000;

/** A SQLite store with one team of two people and `count` direct messages of about 120 bytes. */
async function seed(dataDir: string, count: number): Promise<string> {
  const store = openStore({ dataDir });
  await store.migrate();
  const team = await createTeam(storeContext(store.db, () => 0), cliActor, { name: `Export ${count}` });
  const [a, b] = [await createPerson(storeContext(store.db, () => 0), cliActor, { teamId: team.id, email: 'a@bench.test', firstName: 'A', lastName: 'A' }), await createPerson(storeContext(store.db, () => 0), cliActor, { teamId: team.id, email: 'b@bench.test', firstName: 'B', lastName: 'B' })];
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let from = 0; from < count; from += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, count - from) }, (_, j) => {
      const i = from + j;
      return messageRow({ uid: newMessageUid(start + i * 10), chat_key: directChatKey(a.id, b.id), team_id: team.id, from_user_id: i % 2 ? a.id : b.id, to_id: i % 2 ? b.id : a.id, timestamp: start + i * 10, text: `message number ${i}: the quick brown fox jumps over the lazy dog, again and again` });
    });
    await store.db.transaction().execute((tx) => insertMessages(tx, rows));
  }
  await store.close();
  return team.id;
}

/** Runs the built CLI under GNU time: its wall time and peak RSS. */
function timedCli(args: string[]): { seconds: number; maxRssMb: number } {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, entry, ...args, '--json'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`aviary ${args.join(' ')} failed: ${run.stderr}`);
  const maxRssKb = Number(run.stderr.trim().split('\n').at(-1));
  return { seconds: (performance.now() - started) / 1000, maxRssMb: maxRssKb / 1024 };
}

execFileSync(process.execPath, [join(repoRoot, 'scripts/build-if-stale.mjs'), 'server'], { stdio: 'inherit' });
const scratch = mkdtempSync(join(tmpdir(), 'aviary-bench-export-'));
try {
  const loadAtStart = loadavg()[0];
  const rows: string[] = [];
  for (const count of [small, large]) {
    const dataDir = join(scratch, `data-${count}`);
    const seedStart = performance.now();
    const teamId = await seed(dataDir, count);
    const seeded = (performance.now() - seedStart) / 1000;
    const out = join(scratch, `out-${count}`);
    const exported = timedCli(['team', 'export', '--team', teamId, '--out', out, '--data', dataDir]);
    const bytes = statSync(join(out, 'messages.jsonl')).size;
    const imported = timedCli(['team', 'import', '--from', out, '--data', join(scratch, `into-${count}`)]);
    rows.push(
      `| ${count.toLocaleString('en')} | ${exported.seconds.toFixed(1)} | ${exported.maxRssMb.toFixed(0)} | ${imported.seconds.toFixed(1)} | ${imported.maxRssMb.toFixed(0)} | ${(bytes / 1e6).toFixed(0)} | ${seeded.toFixed(0)} |`,
    );
  }
  console.log(`aviary team export and import (SQLite, built CLI, pages of 1000, inserts of 500), load average ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
  console.log('| messages | export s | export peak RSS MB | import s | import peak RSS MB | messages.jsonl MB | seeding s |\n|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
