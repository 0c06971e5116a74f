import { createCtxgate, isCtxgateError, CtxgateError, init, shutdown } from '../../src/index.ts';
import { crc32, utf8Check } from '../../src/core/checksum.ts';
import { getCore, initCore, resetCore, setRecycleThreshold, withCore } from '../../src/core/core.ts';
import { createSha256Sync } from '../../src/core/sha256.ts';
import { rejection } from '../fixtures/thrown.ts';
import type { Harness } from './harness.ts';
import { SHA256_ABC } from '../fixtures/known-answers.ts';

const enc = new TextEncoder();

/** The foundation contract: the core loads, answers known vectors, and fails with typed errors. */
export function coreContract({ describe, it, expect, runtime }: Harness): void {
  describe(`core (${runtime})`, () => {
    it('crc32 known answers through the default engine', async () => {
      await using cg = await createCtxgate();
      expect(cg.mode).toBe(runtime === 'chromium' || runtime === 'deno' ? 'worker' : 'inline');
      expect(await cg.crc32('123456789')).toBe(0xcbf43926);
      expect(await cg.crc32('')).toBe(0);
      expect(await cg.crc32('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339);
      // continuing over chunks equals one pass
      const whole = await cg.crc32('hello world');
      expect(await cg.crc32(' world', await cg.crc32('hello'))).toBe(whole);
    });

    it('the shared engine behind the package-level functions is a worker only in browsers (a live worker keeps Deno from exiting)', async () => {
      await shutdown();
      const shared = await init();
      expect(shared.mode).toBe(runtime === 'chromium' ? 'worker' : 'inline');
      expect(await shared.crc32('123456789')).toBe(0xcbf43926);
      await shutdown();
    });

    it('strings go in as UTF-8, including astral characters', async () => {
      await using cg = await createCtxgate();
      expect(await cg.crc32('hé😀')).toBe(await cg.crc32(enc.encode('hé😀')));
      expect(await cg.utf8Check(enc.encode('hé😀'))).toEqual({ valid: true, codePoints: 3, invalidAt: -1, byteLength: 7 });
    });

    it('long strings go in as the same UTF-8 as TextEncoder writes; only Node copies code units for the core to encode', async () => {
      await initCore();
      const texts = [
        'plain ASCII line\n'.repeat(40),
        'café crème, Straße: ' + 'x'.repeat(300) + ' 構成 😀 \u8000\uffff',
        ('ab\ud800cd\ude00' + 'é'.repeat(17) + '\ud83d\ude00').repeat(30),
      ];
      await using cg = await createCtxgate();
      for (const text of texts) {
        const bytes = enc.encode(text);
        expect(await cg.crc32(text)).toBe(await cg.crc32(bytes));
        withCore((core) => {
          const { ptr, len } = core.writeString(text);
          expect(core.view(ptr, len)).toEqual(bytes);
          // Known answer for the core's transcoder itself, whichever path writeString took.
          const src = core.reserve(text.length * 5) + text.length * 3;
          const units = new DataView(core.view(0, 0).buffer);
          for (let k = 0; k < text.length; k++) units.setUint16(src + k * 2, text.charCodeAt(k), true);
          const at = src - text.length * 3;
          expect(core.view(at, core.raw.utf16ToUtf8(src, text.length, at))).toEqual(bytes);
        });
      }
      // The code units go to the window's last 2n bytes, where the encoder never writes.
      const lastUnit = withCore((core) => {
        core.writeBytes(new Uint8Array(900).fill(0xee));
        const { ptr } = core.writeString('é'.repeat(300));
        return [...core.view(ptr + 898, 2)];
      });
      expect(lastUnit).toEqual(runtime === 'node' ? [0xe9, 0] : [0xee, 0xee]);
    });

    it('rejects malformed UTF-8 at the exact offset', async () => {
      await using cg = await createCtxgate();
      const cases: [number[], number][] = [
        [[0x61, 0xc0, 0x80], 1], // overlong NUL
        [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
        [[0x61, 0x62, 0xf4, 0x90, 0x80, 0x80], 2], // above U+10FFFF
        [[0xe2, 0x82], 0], // truncated
        [[0x80], 0], // lone continuation
      ];
      for (const [bytes, at] of cases) {
        const r = await cg.utf8Check(new Uint8Array(bytes));
        expect(r.valid).toBe(false);
        expect(r.invalidAt).toBe(at);
      }
    });

    it('a 4 MiB input crosses the boundary and grows the core window', async () => {
      await using cg = await createCtxgate({ transferInputs: true });
      const big = new Uint8Array(4 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
      const expected = await (async () => {
        await using inline = await createCtxgate({ worker: false });
        // Awaited here: disposal at the end of the block closes the engine, and closing rejects a
        // call still running (in both engines).
        return await inline.crc32(big.slice());
      })();
      expect(await cg.crc32(big)).toBe(expected);
    });

    it('a closed engine rejects with WORKER_CLOSED', async () => {
      const cg = await createCtxgate();
      await cg.close();
      await cg.close(); // idempotent
      const error = await rejection(cg.crc32('x'));
      expect(isCtxgateError(error, 'WORKER_CLOSED')).toBe(true);
    });

    it('a bad wasm source is a typed WASM_LOAD_FAILED error, across the worker too', async () => {
      const error = await rejection(createCtxgate({ wasm: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }));
      expect(error).toBeInstanceOf(CtxgateError);
      expect((error as CtxgateError).code).toBe('WASM_LOAD_FAILED');
      expect((error as CtxgateError).message).toMatch(/init\(\)/);
    });

    it("a .wasm that is not this version's core is WASM_LOAD_FAILED naming what it lacks, and the current core stays", async () => {
      // A valid module with memory and _initialize only: it instantiates, and before the check
      // became the thread's core, failing every later call with a TypeError.
      const foreign = new Uint8Array([
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
        0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type: () -> ()
        0x03, 0x02, 0x01, 0x00, // function 0 of type 0
        0x05, 0x03, 0x01, 0x00, 0x01, // memory: 1 page
        0x07, 0x18, 0x02, 0x06, ...[...'memory'].map((c) => c.charCodeAt(0)), 0x02, 0x00, 0x0b, ...[...'_initialize'].map((c) => c.charCodeAt(0)), 0x00, 0x00,
        0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b, // code: an empty body
      ]);
      const error = await rejection(createCtxgate({ wasm: foreign }));
      expect(isCtxgateError(error, 'WASM_LOAD_FAILED')).toBe(true);
      // workerd refuses to compile wasm from bytes at run time, so there the load fails before the
      // exports are looked at (still WASM_LOAD_FAILED); everywhere else they are checked.
      if (runtime !== 'workerd') {
        expect((error as CtxgateError).message).toMatch(/not this version's ctxgate core: it lacks ioInput/);
        expect((error as CtxgateError).details.missing).toContain('secretScan');
      }
      await using cg = await createCtxgate();
      expect(await cg.crc32('123456789')).toBe(0xcbf43926);
    });

    it('an instance whose memory grew past the threshold is swapped for a fresh one, once no hasher holds state in it', async () => {
      await initCore();
      const threshold = 8 * 1024 * 1024;
      const previous = setRecycleThreshold(threshold);
      try {
        const big = new Uint8Array(12 * 1024 * 1024);
        for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
        const first = getCore();
        const hasher = createSha256Sync().update('ab');
        const sum = crc32(big);
        expect(first.memoryBytes).toBeGreaterThan(threshold);
        // Synchronous calls keep working while the fresh instance is made.
        expect(crc32('123456789')).toBe(0xcbf43926);
        await initCore();
        // The hasher's state lives in the grown instance: it is kept, and the hash completes.
        expect(getCore()).toBe(first);
        expect(hasher.update('c').digestHex()).toBe(SHA256_ABC);
        await initCore();
        const second = getCore();
        expect(second).not.toBe(first);
        expect(second.memoryBytes).toBeLessThan(threshold);
        // The fresh instance answers as the old one did, and is recycled in its turn.
        expect(crc32(big)).toBe(sum);
        await initCore();
        expect(getCore()).not.toBe(second);
        expect(getCore().memoryBytes).toBeLessThan(threshold);
        // Below the threshold an instance is kept.
        const third = getCore();
        expect(crc32(new Uint8Array(1024 * 1024))).toBe(0xa738ea1c); // 1 MiB of zeros (zlib.crc32)
        await initCore();
        expect(getCore()).toBe(third);
      } finally {
        setRecycleThreshold(previous);
      }
    });

    it('synchronous helpers fail loudly before the core is loaded', async () => {
      resetCore();
      let thrown: unknown;
      try {
        crc32('x');
      } catch (e) {
        thrown = e;
      }
      expect(isCtxgateError(thrown, 'NOT_INITIALIZED')).toBe(true);
      expect((thrown as Error).message).toMatch(/await loadCore\(\)/);
      await initCore();
      expect(crc32('123456789')).toBe(0xcbf43926);
      expect(utf8Check(new Uint8Array([0x41])).codePoints).toBe(1);
    });
  });
}
