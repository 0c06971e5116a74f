import { CtxgateError } from '../errors.ts';

/**
 * The one write a store operation makes to a caller's context, after every check passed: sets
 * `target[key]` (or deletes it for `undefined`). A context made read-only (Object.freeze, or a
 * state library such as Immer that freezes what it hands out) makes that write a TypeError in
 * strict code; it becomes INVALID_PARAMS naming `field` (see {@link readOnlyContext}), and nothing
 * has been written.
 */
export function writeMember(target: Record<string, unknown>, key: string, value: unknown, field: string): void {
  try {
    if (value === undefined) delete target[key];
    else target[key] = value;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw readOnlyContext(field, error);
  }
}

/**
 * INVALID_PARAMS: `field` of the caller's context is read-only. For {@link writeMember}'s failed
 * write (`cause`), and for an operation that sees the write would fail before it does costly work
 * (storing artifact bytes), so both refuse alike.
 */
export function readOnlyContext(field: string, cause?: unknown): CtxgateError {
  return new CtxgateError(
    'INVALID_PARAMS',
    `${field}: is read-only (the context is frozen or sealed, as Object.freeze or a state library such as Immer leaves it); write to a copy made with cloneContext() and keep that.`,
    { details: { field }, cause },
  );
}
