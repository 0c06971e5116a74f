import { defineConfig } from 'vitest/config';
import { defaultServerConditions } from 'vite';

// Node runtime: unit tests of every module plus the shared contract suite, in-thread.
export default defineConfig({
  resolve: { conditions: ['source', ...defaultServerConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions], externalConditions: ['source'] } },
  test: {
    name: 'node',
    // `npm run golden` runs the generators of golden files instead of the tests.
    include: process.env.GOLDEN === '1' ? ['test/**/*.gen.ts'] : ['test/**/*.test.ts'],
    exclude: ['test/**/*.browser.test.ts', 'test/**/*.workerd.test.ts', 'test/deno/**', 'test/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['test/setup/fast-check.ts'],
    pool: 'threads',
    maxWorkers: 2,
  },
});
