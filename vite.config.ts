import { defineConfig } from 'vite';
import { defaultClientConditions } from 'vite';

// The playground (web/), built to dist-web/. The 'source' condition makes ctxgate's own
// '#wasm-source' / '#engine' imports resolve to src/ (see package.json "imports").
export default defineConfig({
  root: 'web',
  base: './',
  resolve: { conditions: ['source', ...defaultClientConditions] },
  worker: { format: 'es' },
  // The exact tokenizer's ranks are imported lazily inside the worker; pre-bundle them so the dev
  // server never discovers them mid-session.
  optimizeDeps: { include: ['comlink', 'idb', 'zod', 'ignore', 'js-tiktoken/lite', 'js-tiktoken/ranks/o200k_base', 'js-tiktoken/ranks/cl100k_base'] },
  build: {
    outDir: '../dist-web',
    emptyOutDir: true,
    target: 'es2022',
    // The core is small; keep it a separate file so the worker streams and caches it.
    assetsInlineLimit: 0,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173, strictPort: false },
});
