import { defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-plugin';

// workerd runtime: the shared contract suites inside Cloudflare's runtime (Miniflare), in-thread
// (no Web Workers there), with the wasm imported statically as a WebAssembly.Module.
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: './test/workerd/wrangler.jsonc' } })],
  // 'source' maps ctxgate's own '#wasm-source' / '#engine' imports to src/ (see package.json).
  resolve: { conditions: ['source', 'workerd', 'worker', 'browser', 'module'] },
  ssr: { resolve: { conditions: ['source', 'workerd', 'worker', 'browser', 'module'], externalConditions: ['source', 'workerd', 'worker'] } },
  test: {
    name: 'workerd',
    include: ['test/**/*.workerd.test.ts'],
  },
});
