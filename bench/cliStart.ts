// How long `aviary <command>` takes from start to exit: the built CLI (packages/server/dist/, what
// bin/aviary.js runs when the build is fresh) against the sources through tsx (AVIARY_CLI_FROM_SOURCES=1,
// what it ran before the build), with a bare `node -e ''` as the floor. Part of `npm run bench`;
// `npx tsx bench/cliStart.ts [runs]` alone. It builds the CLI first when the build is stale.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const entry = join(repoRoot, 'packages/server/bin/aviary.js');
const runs = Number(process.argv[2] ?? 15);

execFileSync(process.execPath, [join(repoRoot, 'scripts/build-if-stale.mjs'), 'server'], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'aviary-bench-cli-'));
try {
  const command = ['user', 'list', '--data', dataDir, '--json'];
  // The store is made by the first run, not measured.
  spawnSync(process.execPath, [entry, ...command], { stdio: 'ignore' });
  const loadAtStart = loadavg()[0];
  const rows = [
    ['bare `node -e ""`', measure(['-e', ''], {})],
    ['`aviary user list --json`, built', measure([entry, ...command], {})],
    ['`aviary user list --json`, sources through tsx', measure([entry, ...command], { AVIARY_CLI_FROM_SOURCES: '1' })],
  ] as const;
  console.log(`CLI start to exit, ${runs} runs each, load average ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
  console.log('| command | median ms | fastest ms |\n|---|---|---|');
  for (const [name, times] of rows) console.log(`| ${name} | ${median(times).toFixed(0)} | ${Math.min(...times).toFixed(0)} |`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/** Wall-clock milliseconds of each run, interleaving nothing else. */
function measure(args: string[], env: Record<string, string>): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    times.push(performance.now() - started);
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
