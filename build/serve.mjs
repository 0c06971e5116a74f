#!/usr/bin/env node
// `npm start`: serves the built playground (dist-web/) and prints its URL.
import { preview } from 'vite';

// Local only by default; HOST=0.0.0.0 serves other machines too (a remote or headless box).
const host = process.env.HOST || undefined;
const server = await preview({ configFile: new URL('../vite.config.ts', import.meta.url).pathname, preview: { open: false, ...(host ? { host } : {}) } });
const url = (host ? server.resolvedUrls?.network[0] : undefined) ?? server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4173/';
console.log(`\nctxgate playground: ${url}\n(Ctrl+C to stop)`);
