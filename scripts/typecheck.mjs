#!/usr/bin/env node
// Type-checks every package: the root project (servers, SDK, tests, examples) and, beside it on the
// other core, the three packages with compiler settings of their own (the browser's web client, and the
// protocol and ServiceML, which must type-check without Node's types). Each check is incremental: what
// it learned is kept in node_modules/.cache/tsc, so a second run re-checks only what changed.
// Exits 1 if any check fails.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const lanes = [['tsconfig.json'], ['packages/protocol', 'packages/serviceml', 'packages/web']];

function check(project) {
  const buildInfo = `node_modules/.cache/tsc/${project.replace(/[/.]/g, '-')}.tsbuildinfo`;
  const args = [tsc, '-p', project, '--incremental', '--tsBuildInfoFile', buildInfo];
  return new Promise((resolve) => spawn(process.execPath, args, { stdio: 'inherit' }).on('exit', (code) => resolve(code === 0)));
}

async function lane(projects) {
  let passed = true;
  for (const project of projects) passed = (await check(project)) && passed;
  return passed;
}

const results = await Promise.all(lanes.map(lane));
process.exit(results.every(Boolean) ? 0 : 1);
