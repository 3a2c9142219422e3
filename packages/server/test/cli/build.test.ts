import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildParts, isStale } from '../../../../scripts/build-parts.mjs';
import { repoRoot, runCli, runCliProcess, tempDataDir } from './cli.js';

const cliPart = buildParts.find((part) => part.key === 'server')!;

describe('the built CLI (packages/server/dist)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'aviary-build-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is stale while it is missing or older than one of its sources, and fresh after', () => {
    const part = { dir: scratch, output: join('dist', 'main.js'), sources: ['src'] };
    mkdirSync(join(scratch, 'src', 'deep'), { recursive: true });
    writeFileSync(join(scratch, 'src', 'deep', 'a.ts'), '');
    expect(isStale(part)).toBe(true);
    mkdirSync(join(scratch, 'dist'));
    writeFileSync(join(scratch, 'dist', 'main.js'), '');
    const built = new Date();
    utimesSync(join(scratch, 'src', 'deep', 'a.ts'), new Date(built.getTime() - 60_000), new Date(built.getTime() - 60_000));
    expect(isStale(part)).toBe(false);
    // A source edited after the build, however deep.
    utimesSync(join(scratch, 'src', 'deep', 'a.ts'), new Date(built.getTime() + 60_000), new Date(built.getTime() + 60_000));
    expect(isStale(part)).toBe(true);
  });

  it('covers every source the CLI bundles: the server, the protocol and ServiceML', () => {
    expect(cliPart.dir).toBe(join(repoRoot, 'packages', 'server'));
    expect(cliPart.sources).toEqual(expect.arrayContaining(['src', '../protocol/src', '../serviceml/src', 'tsup.config.ts']));
  });

  // `npm test` and `npm start` build it first (scripts/build-if-stale.mjs); a run of vitest after editing
  // the sources without building has it stale, and bin/aviary.js runs the sources then.
  it.runIf(!isStale(cliPart))('runs a command as the sources do', async () => {
    const { dir, remove } = tempDataDir();
    try {
      const fromBuild = await runCliProcess(['team', 'create', '--name', 'Built', '--data', dir, '--json']);
      expect(fromBuild.code, fromBuild.stderr).toBe(0);
      const sources = await runCliProcess(['team', 'create', '--name', 'Sources', '--data', dir, '--json'], { AVIARY_CLI_FROM_SOURCES: '1' });
      expect(sources.code, sources.stderr).toBe(0);
      expect(JSON.parse(fromBuild.stdout)).toEqual({ id: expect.stringMatching(/^t:/) });
      expect(JSON.parse(sources.stdout)).toEqual({ id: expect.stringMatching(/^t:/) });
      const help = await runCliProcess(['--help']);
      expect(help.stdout).toBe((await runCli(['--help'])).stdout);
    } finally {
      remove();
    }
  });
});
