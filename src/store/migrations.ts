import { expectMethods, expectOptionalString, expectString } from '../args.ts';
import { CtxgateError, invalidParams, quietCause } from '../errors.ts';
import { copyJson } from './json-data.ts';
import { assertSafeJson, isPlainObject } from './json-safety.ts';
import { CONTEXT_SCHEMA_VERSION } from './model.ts';

/**
 * Rewrites a serialised context of one schema version into the next. It receives a private deep
 * copy, so it may mutate and return its argument; the registry stamps the target version itself.
 */
export type Migration = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * From-version → to-version migrations, applied one after another until the target version is
 * reached (spec "Migration Strategy"). Each version has at most one outgoing migration, so the
 * path from any version is unambiguous.
 */
export class MigrationRegistry {
  private readonly steps = new Map<string, { to: string; migrate: Migration }>();

  /** Registers the migration from `from` to `to`. Refuses a second migration out of the same version. */
  register(from: string, to: string, migrate: Migration): this {
    if (typeof from !== 'string' || from === '') throw invalidParams('from', 'must be a non-empty version string');
    if (typeof to !== 'string' || to === '') throw invalidParams('to', 'must be a non-empty version string');
    if (from === to) throw invalidParams('to', 'must differ from `from`');
    if (typeof migrate !== 'function') throw invalidParams('migrate', 'must be a function');
    if (this.steps.has(from)) {
      throw invalidParams('from', `a migration out of ${from} is already registered (to ${this.steps.get(from)?.to}); register one path per version`);
    }
    this.steps.set(from, { to, migrate });
    return this;
  }

  /**
   * The versions visited from `from` to `to`, both included; throws MIGRATION_FAILED if there is no
   * path. INVALID_PARAMS unless `from` is a string and `to` a string or undefined (the current version).
   */
  path(from: string, to: string = CONTEXT_SCHEMA_VERSION): string[] {
    expectString(from, 'from');
    expectString(to, 'to');
    const visited = [from];
    let at = from;
    while (at !== to) {
      const step = this.steps.get(at);
      if (step === undefined || visited.includes(step.to)) {
        throw new CtxgateError(
          'MIGRATION_FAILED',
          `no migration path from schema version ${from} to ${to} (stuck at ${at}); register a migration out of ${at} or load this context with a matching SDK version`,
          { details: { from, to, stuckAt: at } },
        );
      }
      at = step.to;
      visited.push(at);
    }
    return visited;
  }

  /**
   * Migrates serialised context data to `to`. The input is never modified. Throws
   * MIGRATION_FAILED if a step is missing, throws, or returns something that is not an object.
   * What a step returns is not modified either (it may be frozen): the registry stamps the
   * version on a deep copy of it, which is what the next step receives.
   */
  migrate(data: unknown, to: string = CONTEXT_SCHEMA_VERSION): Record<string, unknown> {
    if (!isPlainObject(data) || typeof data.version !== 'string') {
      throw invalidParams('context.version', 'must be a string; this does not look like a serialised AgentContext');
    }
    expectOptionalString(to, 'to');
    const from = data.version;
    const versions = this.path(from, to);
    let current: Record<string, unknown>;
    try {
      current = structuredClone(data);
    } catch (cause) {
      // A function or a symbol somewhere in the data: not serialised context data.
      throw new CtxgateError('INVALID_PARAMS', 'context: holds a value that cannot be copied (a function, a symbol, a class instance); pass serialised context data', {
        details: { field: 'context' },
        cause: quietCause(cause),
      });
    }
    for (let i = 1; i < versions.length; i++) {
      const stepFrom = versions[i - 1] as string;
      const stepTo = versions[i] as string;
      const step = this.steps.get(stepFrom);
      let next: Record<string, unknown>;
      try {
        const returned = step?.migrate(current);
        if (!isPlainObject(returned)) throw new TypeError('the migration did not return an object');
        assertSafeJson(returned, 'context');
        // Stamped on a copy: a migration may return a frozen object (as Immer's produce does), and
        // the next step, like the caller, is promised data of its own that it may modify.
        next = copyJson(returned, 'context');
        next.version = stepTo;
      } catch (cause) {
        throw new CtxgateError('MIGRATION_FAILED', `migration from schema version ${stepFrom} to ${stepTo} failed; fix the migration or the stored data`, {
          details: { from, to, stepFrom, stepTo },
          cause,
        });
      }
      current = next;
    }
    return current;
  }
}

/**
 * Migrates serialised context data to `to` with `registry` (spec `MigrateContext`). INVALID_PARAMS
 * if `registry` is not a {@link MigrationRegistry}, `to` is not a version string (`undefined` is
 * the current version) or `data` has no string `version` (`context.version`).
 */
export function migrateContext(data: unknown, to: string, registry: MigrationRegistry): Record<string, unknown> {
  // Duck-typed, so a registry from another copy of the package (two bundles) still works.
  expectMethods(registry, 'registry', ['migrate'], 'a MigrationRegistry');
  return registry.migrate(data, to);
}
