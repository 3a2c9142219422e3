#!/usr/bin/env node
// `aviary`: the built CLI (packages/server/dist/, made by scripts/build-if-stale.mjs: npm ci's prepare,
// npm start and npm test build it), which starts without compiling TypeScript. While the build is
// missing or older than the sources (someone is editing them), the sources run through tsx instead:
// a command never runs code older than its sources. AVIARY_CLI_FROM_SOURCES=1 asks for the sources.
import { buildParts, isStale } from '../../../scripts/build-parts.mjs';

const cli = buildParts.find((part) => part.key === 'server');
if (process.env.AVIARY_CLI_FROM_SOURCES !== '1' && !isStale(cli)) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
