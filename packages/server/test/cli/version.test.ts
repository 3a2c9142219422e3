import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot, runCli } from './cli.js';

const versionOf = (file: string) => (JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as { version: string }).version;

it('aviary --version, the package files and the top entry of CHANGELOG.md name one version', async () => {
  const version = versionOf('packages/server/package.json');
  expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  expect(versionOf('package.json')).toBe(version);
  expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  // An "Unreleased" section may sit above it while the next version is being made.
  const entries = [...readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8').matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  expect(entries.find((entry) => entry !== 'Unreleased')).toBe(version);
});
