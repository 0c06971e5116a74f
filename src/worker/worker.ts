// The module Web Worker that hosts the core in browsers and Deno.
//
// `expose` runs synchronously at module evaluation: if the module awaited anything first, Comlink
// would not be listening yet and the first call would be lost (seen in Chromium and Deno). The
// wasm is loaded later, inside the first `init()` call.
import { expose } from 'comlink';
import { createCoreApi } from './api.ts';
import { toWire } from './wire.ts';

expose(toWire(createCoreApi('worker')));
