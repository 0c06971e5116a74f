import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import { playwright } from '@vitest/browser-playwright';

// Chromium runtime: the shared contract suites in real headless Chromium (Debian's package), with
// the core in a module Web Worker and IndexedDB for the store.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  resolve: { conditions: ['source', ...defaultClientConditions] },
  worker: { format: 'es' },
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
