import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Inside the repository, @aviary/sdk resolves to its sources (its package.json's "aviary-source"), not its build.
// Without "module": packages load as Node loads them (the AWS SDK's "module" build imports paths without extensions).
const conditions = ['aviary-source', ...defaultServerConditions.filter((condition) => condition !== 'module')];

/**
 * Files that mock a module get a fresh process each: a mock must not reach, or miss, modules another
 * file loaded. Every other file shares its worker's loaded modules with the files run before it there,
 * which saves most of the suite's start-up work; that is safe because a test file keeps all its state to
 * itself (docs/testing.md).
 */
const ownProcess = ['packages/server/test/security/signInCost.test.ts'];
/** The web client's tests in Chromium (a project of their own: their time-outs are longer). */
const browserFiles = 'packages/web/test/browser/**/*.test.ts';

/**
 * The longest files, which mostly wait (on processes they start, a listener's probe interval, a lease,
 * tsc, Chromium), start first, longest first: started last, one of them alone would make the run's tail.
 */
const startFirst = [
  'packages/server/test/events/restartRecovery.test.ts',
  'packages/server/test/events/crash.test.ts',
  'packages/web/test/browser/screenshots.test.ts',
  'packages/sdk/test/package/package.test.ts',
  'packages/server/test/cli/serve.test.ts',
  'packages/server/test/security/fuzz.test.ts',
  'packages/server/test/scale/deployment.test.ts',
  'packages/server/test/scale/storeFaults.test.ts',
];

/**
 * The files of their own process come first of all: a worker that shares its modules is ended when the
 * next file in the queue needs a fresh process, and the next shared file would have to load everything
 * again in a new worker.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      if (spec.project.config.isolate) return -1;
      const index = startFirst.findIndex((path) => spec.moduleId.endsWith(path));
      return index === -1 ? startFirst.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // expect.poll waits on a signal (a frame, a row, a request); its own default of one second is less
    // than a busy machine takes for some (a web page's reconnect after its backoff: 0.5 to 1 s, jittered).
    expect: { poll: { timeout: 10_000 } },
    sequence: { sequencer: LongestFirst },
    globalSetup: ['packages/server/test/globalSetup.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/*/test/**/*.test.ts'], exclude: [...ownProcess, browserFiles], isolate: false, maxWorkers } },
      // A browser test drives several pages, each waiting on the server and on Chromium's rendering: 10 s
      // alone, and two or three times that when the run loads the machine. A wait gets 30 s
      // (openWatchedPage), and a test four of them.
      { extends: true, test: { name: 'browser', include: [browserFiles], isolate: false, maxWorkers, testTimeout: 120_000, expect: { poll: { timeout: 30_000 } } } },
      { extends: true, test: { name: 'own-process', include: ownProcess, isolate: true, maxWorkers } },
    ],
  },
});
