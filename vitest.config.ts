import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Inside the repository, @aviary/sdk resolves to its sources (its package.json's "aviary-source"), not its build.
const conditions = ['aviary-source', ...defaultServerConditions];

/**
 * Files that each get a fresh process: those that start a browser or whole server processes (long, and
 * best started early), and those that mock a module (a mock must not reach, or miss, modules another file
 * loaded). Every other file shares its worker's loaded modules with the files run before it there, which
 * halves the suite's work; that is safe because a test file keeps all its state to itself (docs/testing.md).
 */
const ownProcess = [
  'packages/server/test/web/**/*.test.ts',
  'packages/server/test/security/csrfBrowser.test.ts',
  'packages/server/test/security/signInCost.test.ts',
  'packages/server/test/scale/**/*.test.ts',
  'packages/server/test/events/crash.test.ts',
  'packages/server/test/events/restartRecovery.test.ts',
  'packages/server/test/events/multiProcess.test.ts',
  'packages/sdk/test/package/**/*.test.ts',
];

// Most files wait on sockets, PostgreSQL and listener apps rather than on a core: three at once on two
// cores (four made the process-starting and fuzzing files run into their time-outs on a busy machine).
const maxWorkers = 3;

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/*/test/**/*.test.ts'], exclude: ownProcess, isolate: false, maxWorkers } },
      { extends: true, test: { name: 'own-process', include: ownProcess, isolate: true, maxWorkers } },
    ],
  },
});
