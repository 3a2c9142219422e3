#!/usr/bin/env node
// Builds what `npm start` and `npm test` need from a fresh clone, each part only when its output is
// missing or older than any of its sources (an up-to-date part costs one directory walk):
// - the web client (packages/web → dist/, vite build), which the server serves at /;
// - the SDK (packages/sdk → dist/, tsup), which apps outside the workspace's sources load (`npx tsx app.ts`).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = join(dirname(dirname(fileURLToPath(import.meta.url))), 'packages');
const binOf = (pkg, bin) => join(dirname(fileURLToPath(import.meta.resolve(`${pkg}/package.json`))), ...bin);

const parts = [
  {
    key: 'web',
    name: 'the web client (packages/web)',
    dir: join(packages, 'web'),
    output: join('dist', 'index.html'),
    // The page bundles the ServiceML renderer and the protocol's route client.
    sources: ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', '../serviceml/src', '../protocol/src'],
    command: () => [binOf('vite', ['bin', 'vite.js']), 'build', '--logLevel', 'warn'],
  },
  {
    key: 'sdk',
    name: 'the SDK (packages/sdk)',
    dir: join(packages, 'sdk'),
    output: join('dist', 'index.js'),
    // The protocol is bundled into the SDK's build.
    sources: ['src', 'package.json', 'tsup.config.ts', '../protocol/src'],
    command: () => [binOf('tsup', ['dist', 'cli-default.js']), '--silent'],
  },
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

// `node scripts/build-if-stale.mjs sdk` builds that part alone (the packed-SDK test, which must not
// rebuild the web client while browser tests serve it).
const only = process.argv.slice(2);
for (const part of parts.filter((candidate) => only.length === 0 || only.includes(candidate.key))) {
  const built = join(part.dir, part.output);
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt >= Math.max(...part.sources.map((source) => newestChange(join(part.dir, source))))) continue;
  console.log(`Building ${part.name}…`);
  execFileSync(process.execPath, part.command(), { cwd: part.dir, stdio: 'inherit' });
}
