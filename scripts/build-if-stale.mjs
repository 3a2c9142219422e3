#!/usr/bin/env node
// Builds what `npm start` and `npm test` need from a fresh clone, each part only when its output is
// missing or older than any of its sources (an up-to-date part costs one directory walk):
// - the web client (packages/web → dist/, vite build), which the server serves at /;
// - the SDK (packages/sdk → dist/, tsup), which apps outside the workspace's sources load (`npx tsx app.ts`);
// - the CLI and server (packages/server → dist/cli/, tsup), which `aviary <command>` runs without
//   compiling TypeScript at every start (packages/server/bin/aviary.js).
// The parts and their staleness are in build-parts.mjs; npm's `prepare` (after `npm ci`) builds the CLI.
import { execFileSync } from 'node:child_process';
import { buildParts, isStale } from './build-parts.mjs';

// `node scripts/build-if-stale.mjs sdk` builds that part alone (the packed-SDK test, which must not
// rebuild the web client while browser tests serve it).
const only = process.argv.slice(2);
for (const part of buildParts.filter((candidate) => only.length === 0 || only.includes(candidate.key))) {
  if (!isStale(part)) continue;
  console.log(`Building ${part.name}…`);
  execFileSync(process.execPath, part.command(), { cwd: part.dir, stdio: 'inherit' });
}
