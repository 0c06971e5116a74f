#!/usr/bin/env node
// `npm start`: serves the built playground (dist-web/) and prints its URL.
import { preview } from 'vite';

const server = await preview({ configFile: new URL('../vite.config.ts', import.meta.url).pathname, preview: { open: false } });
const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4173/';
console.log(`\nctxgate playground: ${url}\n(Ctrl+C to stop)`);
