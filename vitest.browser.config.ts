import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import { playwright } from '@vitest/browser-playwright';

// Chromium runtime: the shared contract suites in real headless Chromium (Debian's package), with
// the core in a module Web Worker and IndexedDB for the store.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  resolve: { conditions: ['source', ...defaultClientConditions] },
  worker: { format: 'es' },
  // Pre-bundle every dependency the suites import lazily. Otherwise a cold Vite cache (every CI run)
  // discovers them mid-run, re-optimises, and the in-flight dynamic imports fail to fetch.
  optimizeDeps: {
    include: [
      'comlink',
      'idb',
      'zod',
      'ignore',
      'expect',
      'fast-check',
      'js-tiktoken/lite',
      'js-tiktoken/ranks/o200k_base',
      'js-tiktoken/ranks/cl100k_base',
      '@modelcontextprotocol/sdk/server/mcp.js',
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/inMemory.js',
    ],
  },
  test: {
    name: 'chromium',
    include: ['test/**/*.browser.test.ts'],
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      provider: playwright({
        launchOptions: {
          executablePath: chromium,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
