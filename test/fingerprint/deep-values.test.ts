import { describe, expect, it } from 'vitest';
import { initCore, withCore, withCoreAsync, getCore } from '../../src/core/core.ts';
import { sha256HexSync } from '../../src/core/sha256.ts';
import { canonicalize, MAX_CANONICAL_DEPTH } from '../../src/fingerprint/canonicalize.ts';
import { fingerprintSync } from '../../src/fingerprint/fingerprint.ts';
import { createCtxgate } from '../../src/index.ts';
import { CtxgateError } from '../../src/errors.ts';
import { deep } from '../fixtures/deep.ts';
import { SHA256_ABC } from '../fixtures/known-answers.ts';

/** `levels` objects nested one in another: {"a":{"a":…{"a":1}…}}. */
function refusal(run: () => unknown): CtxgateError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(CtxgateError);
    return e as CtxgateError;
  }
  throw new Error('expected a refusal');
}

describe('canonicalize: depth', () => {
  it('writes data nested exactly MAX_CANONICAL_DEPTH levels', () => {
    expect(MAX_CANONICAL_DEPTH).toBe(1000);
    expect(canonicalize(deep(1000))).toBe('{"a":'.repeat(1000) + '1' + '}'.repeat(1000));
  });

  it('refuses one level more, and far more, with UNSUPPORTED_VALUE instead of running out of stack', () => {
    for (const levels of [1001, 5000, 100_000]) {
      const e = refusal(() => canonicalize(deep(levels)));
      expect(e.code).toBe('UNSUPPORTED_VALUE');
      expect(e.message).toContain('nested deeper than 1000 levels');
      // The message keeps the path's ends, not its thousands of characters.
      expect(e.message.length).toBeLessThan(400);
      expect(e.details.path).toBe('$' + '.a'.repeat(1000));
    }
    const arrays = refusal(() => fingerprintSync(JSON.parse('['.repeat(1500) + ']'.repeat(1500))));
    expect(arrays.code).toBe('UNSUPPORTED_VALUE');
  });

  it('asks a value for toJSON once, as JSON.stringify does', () => {
    const self = { toJSON() { return this; }, n: 1 };
    const e = refusal(() => canonicalize(self));
    // Written as it is: its toJSON member is a function, which JSON data cannot hold.
    expect(e.code).toBe('UNSUPPORTED_VALUE');
    expect(e.details.path).toBe('$.toJSON');
    expect(canonicalize({ toJSON: () => ({ toJSON: 'kept', b: 2 }) })).toBe('{"b":2,"toJSON":"kept"}');
  });
});

describe('the thread core after a failure', () => {
  it('keeps its core when the JavaScript around a core call throws', async () => {
    await initCore();
    const before = getCore();
    const engine = await createCtxgate({ worker: false });
    await expect(engine.fingerprint(deep(5000))).rejects.toMatchObject({ code: 'UNSUPPORTED_VALUE' });
    await expect(withCoreAsync(() => {
      throw new RangeError('not the core');
    })).rejects.toThrow(RangeError);
    expect(getCore()).toBe(before);
    expect(sha256HexSync('abc')).toBe(SHA256_ABC);
    await engine.close();
  });

  it('replaces a core that trapped with a fresh instance of the same module', async () => {
    const failed = await initCore();
    const e = refusal(() =>
      withCore(() => {
        throw new WebAssembly.RuntimeError('unreachable');
      }),
    );
    expect(e.code).toBe('CORE_FAILURE');
    expect(e.message).toContain('await loadCore()');
    // Synchronous calls refuse until the replacement is ready …
    expect(refusal(() => sha256HexSync('abc')).code).toBe('NOT_INITIALIZED');
    // … which is already on its way: no new source is needed.
    const fresh = await initCore();
    expect(fresh).not.toBe(failed);
    expect(getCore()).toBe(fresh);
    expect(sha256HexSync('abc')).toBe(SHA256_ABC);
  });
});
