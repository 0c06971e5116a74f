/**
 * Spec 000 §9: every module-level singleton has a reset function, and one call resets them all so
 * tests never see state from an earlier test. Singletons are created lazily on first use.
 */
import { expectFunction, expectString } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectOptionalFunction } from './checks.ts';

const resets = new Map<string, () => void>();

/** A lazily created module-level value with a reset. */
export interface Singleton<T> {
  /** The value, created on first call. */
  get(): T;
  /** Drops the value; the next `get` creates a fresh one. */
  reset(): void;
  /** True when the value has been created and not reset since. */
  readonly created: boolean;
}

/**
 * Defines a module-level singleton and registers its reset with {@link resetAllSingletons}.
 * Defining the same name twice replaces the earlier registration (module reloads in tests).
 * A `create` that calls `get()` of the singleton it is creating is INVALID_PARAMS naming `create`
 * (it would otherwise recurse until the stack overflows); nothing is stored, so a later `get`
 * tries again.
 *
 * @example const marketCache = defineSingleton('marketCache', () => new TtlCache({ ttlMs: 5 * 60_000 }));
 */
export function defineSingleton<T>(name: string, create: () => T, dispose?: (value: T) => void): Singleton<T> {
  expectString(name, 'name');
  expectFunction(create, 'create');
  expectOptionalFunction(dispose, 'dispose');
  let value: { v: T } | undefined;
  let creating = false;
  const singleton: Singleton<T> = {
    get() {
      if (value === undefined) {
        if (creating) throw invalidParams('create', `the create function of singleton "${name}" called its get(); a singleton cannot be built from itself.`, { name });
        creating = true;
        try {
          value = { v: create() };
        } finally {
          creating = false;
        }
      }
      return value.v;
    },
    reset() {
      if (value !== undefined && dispose) dispose(value.v);
      value = undefined;
    },
    get created() {
      return value !== undefined;
    },
  };
  resets.set(name, () => singleton.reset());
  return singleton;
}

/**
 * Registers a reset function of state that is not a {@link defineSingleton} (e.g. a module map).
 * A `name` that is not a string or a `reset` that is not a function is INVALID_PARAMS, and nothing
 * is registered.
 */
export function registerSingletonReset(name: string, reset: () => void): void {
  expectString(name, 'name');
  expectFunction(reset, 'reset');
  resets.set(name, reset);
}

/** Names of the registered singletons, in registration order. */
export function singletonNames(): string[] {
  return [...resets.keys()];
}

/**
 * Resets every registered singleton. Call it in `beforeEach`/`afterEach` of tests. A failing
 * reset does not stop the others; the first failure is rethrown at the end.
 */
export function resetAllSingletons(): void {
  let first: unknown;
  for (const reset of resets.values()) {
    try {
      reset();
    } catch (e) {
      first ??= e;
    }
  }
  if (first !== undefined) throw first;
}
