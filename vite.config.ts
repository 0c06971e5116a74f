import { defineConfig } from 'vite';
import { defaultClientConditions } from 'vite';

// The playground (web/), built to dist-web/. The 'source' condition makes ctxgate's own
// '#wasm-source' / '#engine' imports resolve to src/ (see package.json "imports").
export default defineConfig({
  root: 'web',
  base: './',
  resolve: { conditions: ['source', ...defaultClientConditions] },
  worker: { format: 'es' },
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
