// What scripts/build-if-stale.mjs builds, and when a part is stale: its output is missing or older than
// any of its sources. packages/server/bin/aviary.js asks the same question of the CLI at every start
// (one walk of about 300 files' dates).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = join(dirname(dirname(fileURLToPath(import.meta.url))), 'packages');
const binOf = (pkg, bin) => join(dirname(fileURLToPath(import.meta.resolve(`${pkg}/package.json`))), ...bin);
const tsup = () => [binOf('tsup', ['dist', 'cli-default.js']), '--silent'];

export const buildParts = [
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
    command: tsup,
  },
  {
    key: 'server',
    name: 'the CLI and server (packages/server)',
    dir: join(packages, 'server'),
    output: join('dist', 'cli', 'main.js'),
    // The protocol, ServiceML, the examples the demo app is made of and the SDK they import (its build,
    // so the SDK is built first) are bundled in; npm packages too, but native addons.
    sources: ['src', 'package.json', 'tsup.config.ts', '../protocol/src', '../serviceml/src', '../../examples', '../sdk/src'],
    command: tsup,
  },
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Whether the part's output is missing or older than one of its sources. */
export function isStale(part) {
  const built = join(part.dir, part.output);
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  return builtAt < Math.max(...part.sources.map((source) => newestChange(join(part.dir, source))));
}
