#!/usr/bin/env node
// Builds the web client (vite build) when dist/ is missing or older than any of its sources, so that
// `npm start` and `npm test` on a fresh clone serve a current page without a separate build command.
// An up-to-date build costs one directory walk.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = dirname(dirname(fileURLToPath(import.meta.url)));
const packages = dirname(web);
const sources = [
  join(web, 'src'),
  join(web, 'public'),
  join(web, 'index.html'),
  join(web, 'vite.config.ts'),
  join(web, 'package.json'),
  // The page bundles the ServiceML renderer.
  join(packages, 'serviceml', 'src'),
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

const built = join(web, 'dist', 'index.html');
const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
if (builtAt < Math.max(...sources.map(newestChange))) {
  console.log('Building the web client (packages/web)…');
  execFileSync(process.execPath, [join(dirname(fileURLToPath(import.meta.resolve('vite/package.json'))), 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: web,
    stdio: 'inherit',
  });
}
