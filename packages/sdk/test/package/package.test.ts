/**
 * The SDK as a stranger gets it: built and packed, installed from the tarball into a fresh project
 * outside the repository, then loaded by plain `node` (ESM and CommonJS) and type-checked by a strict
 * consumer's `tsc` under node16 and bundler resolution. Slow (a build and an install): one test file.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const sdkDir = join(here, '..', '..');
const tsc = join(sdkDir, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
const minutes = 60_000;

let project: string;
let tarball: string;
let docExamples: Array<{ file: string; code: string }>;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'aviary-sdk-consumer-'));
  // The build `npm test` made before (scripts/build-if-stale.mjs, the same tsup as prepack), made here only
  // when stale: packing never rewrites dist/ while other test files load it. The tarball goes where the
  // consumer will install it from.
  await run(process.execPath, [join(sdkDir, '..', '..', 'scripts', 'build-if-stale.mjs'), 'sdk']);
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: sdkDir, maxBuffer: 16 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(stdout.slice(stdout.search(/^\[\s*\{/m))) as [{ filename: string }];
  tarball = join(project, filename);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', tarball, '@types/node@^20', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project });
  for (const file of await readdir(join(here, 'consumer'))) await cp(join(here, 'consumer', file), join(project, file));
  // The whole programs of docs/sdk.md (its TypeScript blocks that begin with their imports), as a reader copies them.
  const guide = await readFile(join(sdkDir, '..', '..', 'docs', 'sdk.md'), 'utf8');
  docExamples = [...guide.matchAll(/```ts\n(import [\s\S]*?)```/g)].map((match, index) => ({ file: `sdk-md-${index + 1}.mts`, code: match[1]! }));
  for (const { file, code } of docExamples) await writeFile(join(project, file), code);
  await writeFile(join(project, 'tsconfig.docs.json'), JSON.stringify({ extends: './tsconfig.node16.json', files: docExamples.map(({ file }) => file) }));
}, 4 * minutes);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed @aviary/sdk in a fresh project', () => {
  it('holds only the build, and depends on nothing of the repository', async () => {
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    const manifest = JSON.parse(stdout) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@sinclair/typebox', 'ws']);
    const { stdout: files } = await run('tar', ['-tzf', tarball]);
    expect(files.trim().split('\n').sort()).toEqual([
      'package/dist/index.cjs',
      'package/dist/index.d.cts',
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/package.json',
      'package/README.md',
    ].sort());
  });

  it('is publishable: public, with its repository and provenance, and `npm publish --dry-run` passes', { timeout: 2 * minutes }, async () => {
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    const manifest = JSON.parse(stdout) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest).toMatchObject({
      name: '@aviary/sdk',
      license: 'MIT',
      repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\/.+\.git$/), directory: 'packages/sdk' },
      files: ['dist', 'README.md'],
      publishConfig: { access: 'public', provenance: true },
    });
    // The registry is never written to; the scripts ran for the pack above already.
    const published = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--json'], { cwd: sdkDir, timeout: minutes, maxBuffer: 16 * 1024 * 1024 });
    // npm 10 answers `{…}`, npm 11 `{"@aviary/sdk": {…}}`.
    const answer = JSON.parse(published.stdout.slice(published.stdout.search(/^\{/m))) as Record<string, unknown>;
    const summary = ('id' in answer ? answer : answer['@aviary/sdk']) as { id: string; files: Array<{ path: string }> };
    expect(summary.id).toBe(`@aviary/sdk@${manifest.version as string}`);
    expect(summary.files.map((file) => file.path)).toContain('dist/index.js');
  });

  it.each(['run.mjs', 'run.cjs'])('loads in plain node (%s): verifies an event token and builds a client', async (script) => {
    const { stdout } = await run(process.execPath, [script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ userId: 'u:aaaaaaaaaaaaaaaa', sendMessage: 'function', handle: 'function' });
  });

  it.each(['tsconfig.node16.json', 'tsconfig.bundler.json'])(
    'passes a strict consumer’s tsc (%s), each @ts-expect-error meeting a real error',
    async (config) => {
      const result = await run(process.execPath, [tsc, '-p', config], { cwd: project }).catch((error: { stdout: string }) => error);
      expect(result.stdout).toBe('');
    },
    // A bound: a whole tsc run over the SDK's declarations takes over a minute while other test files run.
    3 * minutes,
  );

  it('compiles the whole programs of docs/sdk.md under the same strict settings', { timeout: 3 * minutes }, async () => {
    expect(docExamples.length).toBeGreaterThanOrEqual(3);
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.docs.json'], { cwd: project }).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  });
});
