// Shared by the bad-input tests: the wrong kinds of arguments they call with, and how a call's
// outcome is taken (sync or async, with a time limit so a hang fails instead of stalling).
import { expect } from 'vitest';
import { CtxgateError } from '../../src/errors.ts';
import type { Engine } from '../../src/worker/engine.ts';
import { rejection } from '../fixtures/thrown.ts';

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

/** One value of each kind a JavaScript caller, or JSON gone wrong, could pass by mistake. */
export const WRONG: Readonly<Record<string, unknown>> = {
  undefined: undefined,
  null: null,
  number: 42,
  NaN: Number.NaN,
  string: 'x',
  object: {},
  array: [],
  function: () => 1,
  symbol: Symbol('s'),
  bigint: 10n,
  cyclic,
};

/** A Uint8Array whose buffer was transferred away. */
export function detached(): Uint8Array {
  const u = new Uint8Array(8);
  structuredClone(u.buffer, { transfer: [u.buffer] });
  return u;
}

/** Each wrong value as the first argument, and as the second after 'x' and after an empty object. */
export const CALLS: readonly [string, unknown[]][] = Object.entries(WRONG).flatMap(([kind, v]): [string, unknown[]][] => [
  [`(${kind})`, [v]],
  [`('x', ${kind})`, ['x', v]],
  [`({}, ${kind})`, [{}, v]],
]);

/**
 * What `call` threw or its promise rejected with; undefined when it returned or resolved. A promise
 * still pending after 5 s counts as a failure (an Error saying so).
 */
export async function outcome(call: () => unknown): Promise<unknown> {
  try {
    const r = call();
    if (r !== null && typeof r === 'object' && typeof (r as { then?: unknown }).then === 'function') {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = Symbol('late');
      const out = await Promise.race([r, new Promise((resolve) => (timer = setTimeout(() => resolve(late), 5000)))]);
      clearTimeout(timer);
      if (out === late) return new Error('neither settled nor failed within 5 s');
    }
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * A worker engine given a function inside an argument (structured clone refuses it): the call
 * rejects with UNSUPPORTED_VALUE naming the method, never the function's source text.
 */
export async function expectFunctionArgumentRefused(engine: Pick<Engine, 'fingerprint'>): Promise<void> {
  const secretish = function tokenGhpSource(): string {
    return 'ghp_source_text';
  };
  const error = (await rejection(engine.fingerprint({ handler: secretish }))) as CtxgateError;
  expect(error).toBeInstanceOf(CtxgateError);
  expect(error.code).toBe('UNSUPPORTED_VALUE');
  expect(error.details).toEqual({ method: 'fingerprint' });
  expect(error.message).not.toContain('ghp_source_text');
}
