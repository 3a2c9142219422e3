import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Inside the repository, @aviary/sdk resolves to its sources (its package.json's "aviary-source"), not its build.
const conditions = ['aviary-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
