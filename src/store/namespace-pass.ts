import { FORBIDDEN_KEYS, MAX_VALUE_DEPTH, inheritsEnumerableMembers } from './json-safety.ts';
import type { JsonTape } from './json-tape.ts';
import { TAPE_ARRAY, TAPE_OBJECT } from './json-tape.ts';
import type { Plan } from './schema-plan.ts';
import { INDEX_LIKE, PLAN_ARRAY, PLAN_BOOLEAN, PLAN_JSON, PLAN_NUMBER, PLAN_OBJECT, PLAN_RECORD, PLAN_STRING, PLAN_ZOD, passesZodChecks } from './schema-plan.ts';

/**
 * The first serialisation of a namespace in one walk: it checks the namespace (the JSON-safety
 * rules of json-safety.ts and the namespace's schema, compiled by schema-plan.ts), records its tape
 * (json-tape.ts) and builds a copy whose objects hold their members in RFC 8785 order, which the
 * native `JSON.stringify` then writes as the namespace's canonical text (the same text
 * `canonicalize` writes; see its fast path in src/fingerprint/canonicalize.ts).
 *
 * The walk answers only "passed" or "not sure": it refuses on the first doubt (a failed check, a
 * member name JSON.stringify would not keep in place, a lone surrogate, anything unusual), and the
 * caller then runs the full validation and writer, which accept or word the error exactly as
 * before. So the walk can make serialisation faster, never different.
 */

/** Thrown inside the walk to refuse. */
const REFUSE: unique symbol = Symbol('namespace-pass: not sure');

/** A namespace that passed: its tape, as `recordTape` records it, and its RFC 8785 text. */
export interface PassedNamespace {
  readonly tape: JsonTape;
  readonly canonical: string;
}

// Walk state, as module variables (faster than fields in this hot walk). The tape is written into
// a reused array and copied out at the end at its exact size, so a first walk neither leaves the
// garbage of a growing array nor retains its spare capacity in the memo. `kids` is a stack of
// member copies: an object's members are visited in their own order (the tape's) and their copies
// parked in slots by RFC 8785 position, then inserted into the copy in that order.
let spareTape: unknown[] = [];
/** A spare tape longer than this (a huge namespace) is dropped after use rather than kept. */
const MAX_SPARE = 1 << 16;
let tape: unknown[] = spareTape;
let at = 0;
/** A walk is under way (a getter inside the data started another): the inner one gets its own tape. */
let busy = false;
const kids: unknown[] = [];
let top = 0;

/**
 * Checks namespace `value` against `plan` as a member of a context (one level deep, as the
 * JSON-safety walk over a whole context sees it), and returns its tape and canonical text, or
 * undefined if the full path must decide.
 */
export function passNamespace(plan: Plan, value: unknown): PassedNamespace | undefined {
  // Member enumeration below (for-in) also yields inherited enumerable members, which JSON and
  // Object.keys leave out; a polluted Object.prototype is left to the full path.
  if (inheritsEnumerableMembers()) return undefined;
  // Saved and restored, so a getter that itself serialises a context cannot upset this walk.
  const outerTape = tape;
  const outerAt = at;
  const outerTop = top;
  const outerBusy = busy;
  tape = busy ? [] : spareTape;
  at = 0;
  busy = true;
  let copy: unknown;
  let recorded: unknown[];
  try {
    copy = visit(plan, value, 1);
    recorded = tape.slice(0, at);
  } catch (error) {
    if (error !== REFUSE) throw error;
    return undefined;
  } finally {
    // Drop what the walk parked, so nothing outlives it.
    if (tape === spareTape && tape.length > MAX_SPARE) spareTape = [];
    else tape.fill(undefined, 0, at);
    kids.fill(undefined, outerTop);
    top = outerTop;
    tape = outerTape;
    at = outerAt;
    busy = outerBusy;
  }
  const canonical = JSON.stringify(copy);
  // JSON.stringify writes a lone surrogate (refused by RFC 8785) as a \uDXXX escape; a string that
  // contains the text "\ud" is written with that sequence too and only costs the full path.
  if (canonical.includes('\\ud')) return undefined;
  return { tape: recorded, canonical };
}


function visit(plan: Plan, value: unknown, depth: number): unknown {
  switch (plan.kind) {
    case PLAN_STRING:
      if (typeof value !== 'string') throw REFUSE;
      checkString(plan, value);
      tape[at++] = value;
      return value;
    case PLAN_NUMBER:
      if (typeof value !== 'number') throw REFUSE;
      checkNumber(plan, value);
      tape[at++] = value;
      return value;
    case PLAN_BOOLEAN:
      if (typeof value !== 'boolean') throw REFUSE;
      tape[at++] = value;
      return value;
    case PLAN_ARRAY:
      return visitArray(plan, value, depth);
    case PLAN_OBJECT:
      return visitObject(plan, value, depth);
    case PLAN_RECORD: {
      const copy = visitMap(plan.element!, value, depth);
      if (plan.zodChecks.length > 0 && !passesZodChecks(plan.zodChecks, value)) throw REFUSE;
      return copy;
    }
    case PLAN_ZOD:
      if (!plan.schema!.safeParse(value).success) throw REFUSE;
      return visitJson(value, depth);
    default:
      return visitJson(value, depth);
  }
}

function checkString(plan: Plan, value: string): void {
  const min = plan.minLength;
  // zod counts code points; fewer units than `min` never reach it, twice as many always do.
  if (min > 0 && (value.length < min || (value.length < 2 * min && codePoints(value) < min))) throw REFUSE;
  const patterns = plan.patterns;
  for (let i = 0; i < patterns.length; i++) if (!patterns[i]!.test(value)) throw REFUSE;
  if (plan.zodChecks.length > 0 && !passesZodChecks(plan.zodChecks, value)) throw REFUSE;
}

function codePoints(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function checkNumber(plan: Plan, value: number): void {
  if (!Number.isFinite(value)) throw REFUSE;
  if (value < plan.min || (value === plan.min && !plan.minInclusive)) throw REFUSE;
  if (value > plan.max || (value === plan.max && !plan.maxInclusive)) throw REFUSE;
  if (plan.safeInteger && !Number.isSafeInteger(value)) throw REFUSE;
  if (plan.zodChecks.length > 0 && !passesZodChecks(plan.zodChecks, value)) throw REFUSE;
}

/** Refuses unless `value` is a plain object (or array, if `array`) the JSON-safety walk and RFC 8785 would take as it is. */
function checkContainer(value: unknown, depth: number, array: boolean): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) !== array) throw REFUSE;
  // The JSON-safety walk's depth rule (this also ends any cycle).
  if (depth >= MAX_VALUE_DEPTH) throw REFUSE;
  // JSON.stringify would call a toJSON (own or inherited); the writer decides what that means.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') throw REFUSE;
  if (!array) {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw REFUSE;
  }
}

// Each visit returns the value itself where JSON.stringify already writes it as RFC 8785 text
// (primitives; arrays and objects whose members all are, objects with their members already in
// canonical order, as in any context parsed from serialised text), else a copy that is: so data
// in canonical order is written as it is, and only what is out of order is copied.

function visitArray(plan: Plan, value: unknown, depth: number): unknown[] {
  checkContainer(value, depth, true);
  const items = value as unknown[];
  const n = items.length;
  tape[at++] = TAPE_ARRAY;
  tape[at++] = n;
  const element = plan.element!;
  let copy: unknown[] | undefined;
  for (let i = 0; i < n; i++) {
    const item = items[i];
    if (item === undefined) throw REFUSE;
    const kid = visit(element, item, depth + 1);
    if (kid !== item && copy === undefined) copy = items.slice(0, i);
    if (copy !== undefined) copy.push(kid);
  }
  if (plan.zodChecks.length > 0 && !passesZodChecks(plan.zodChecks, value)) throw REFUSE;
  return copy ?? items;
}

function visitObject(plan: Plan, value: unknown, depth: number): Record<string, unknown> {
  checkContainer(value, depth, false);
  const obj = value as Record<string, unknown>;
  tape[at++] = TAPE_OBJECT;
  const countAt = at;
  tape[at++] = 0;
  const slots = plan.slots;
  const fields = plan.fields;
  const required = plan.required;
  const n = fields.length;
  const base = top;
  top += n;
  for (let i = base; i < top; i++) kids[i] = undefined;
  let count = 0;
  let requiredSeen = 0;
  // Whether the members came in canonical order and each was written as it is.
  let last = -1;
  let asIs = true;
  const seenNames = plan.seenNames;
  const seenSlots = plan.seenSlots;
  let position = 0;
  for (const key in obj) {
    let slot: number | undefined;
    if (seenNames[position] === key) slot = seenSlots[position]!;
    else {
      slot = slots.get(key);
      // An unknown member (strict objects refuse it) or a forbidden name.
      if (slot === undefined) throw REFUSE;
      seenNames[position] = key;
      seenSlots[position] = slot;
    }
    position++;
    const member = obj[key];
    if (member === undefined) throw REFUSE;
    tape[at++] = key;
    const field = fields[slot]!;
    let kid: unknown;
    // Plain strings (most members) are settled here, without a call.
    if (field.anyString && typeof member === 'string') {
      tape[at++] = member;
      kid = member;
    } else kid = visit(field, member, depth + 1);
    kids[base + slot] = kid;
    if (slot < last || kid !== member) asIs = false;
    last = slot;
    if (required[slot]) requiredSeen++;
    count++;
  }
  if (requiredSeen !== plan.requiredCount) throw REFUSE;
  tape[countAt] = count;
  if (plan.zodChecks.length > 0 && !passesZodChecks(plan.zodChecks, value)) throw REFUSE;
  let out = obj;
  if (!asIs) {
    const names = plan.sortedKeys;
    out = { ...plan.template };
    for (let i = 0; i < n; i++) {
      const kid = kids[base + i];
      if (kid !== undefined) out[names[i]!] = kid;
    }
  }
  top = base;
  return out;
}

/** A map's member names in their own order and in RFC 8785 order, computed once per list of names. */
interface Shape {
  readonly keys: readonly string[];
  /** For each position in RFC 8785 order, the member's position in `keys`. */
  readonly order: readonly number[];
  readonly sorted: readonly string[];
  /** The names are already in RFC 8785 order. */
  readonly inOrder: boolean;
}

/** Shapes by their first name; bounded, cleared when full. */
const shapes = new Map<string, Shape[]>();
let shapeCount = 0;
const MAX_SHAPES = 512;

/** The shape of these names, or undefined if one is forbidden or would not keep its place in JSON.stringify. */
function shapeOf(keys: string[]): Shape | undefined {
  const first = keys.length === 0 ? '' : keys[0]!;
  let list = shapes.get(first);
  if (list !== undefined) {
    next: for (const shape of list) {
      const known = shape.keys;
      if (known.length !== keys.length) continue;
      for (let i = 1; i < keys.length; i++) if (known[i] !== keys[i]) continue next;
      return shape;
    }
  }
  for (const key of keys) if (FORBIDDEN_KEYS.has(key) || INDEX_LIKE.test(key)) return undefined;
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
  const shape: Shape = { keys, order, sorted: order.map((i) => keys[i]!), inOrder: order.every((k, i) => k === i) };
  if (shapeCount >= MAX_SHAPES) {
    shapes.clear();
    shapeCount = 0;
    list = undefined;
  }
  if (list === undefined) shapes.set(first, (list = []));
  list.push(shape);
  shapeCount++;
  return shape;
}

/** A map (record) whose values follow `element`; `undefined` element for any JSON value. */
function visitMap(element: Plan | undefined, value: unknown, depth: number): Record<string, unknown> {
  checkContainer(value, depth, false);
  const obj = value as Record<string, unknown>;
  // zod validates symbol-named members of a record too; they are rare enough to leave to it.
  if (element !== undefined && Object.getOwnPropertySymbols(obj).length > 0) throw REFUSE;
  const keys = Object.keys(obj);
  const shape = shapeOf(keys);
  if (shape === undefined) throw REFUSE;
  const n = keys.length;
  tape[at++] = TAPE_OBJECT;
  tape[at++] = n;
  const base = top;
  top += n;
  let asIs = shape.inOrder;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    const member = obj[key];
    if (member === undefined) throw REFUSE;
    tape[at++] = key;
    const kid = element === undefined ? visitJson(member, depth + 1) : visit(element, member, depth + 1);
    kids[base + i] = kid;
    if (kid !== member) asIs = false;
  }
  let out = obj;
  if (!asIs) {
    const order = shape.order;
    const sorted = shape.sorted;
    out = {};
    for (let i = 0; i < n; i++) out[sorted[i]!] = kids[base + order[i]!];
  }
  top = base;
  return out;
}

/** Any JSON value: only the JSON-safety rules (and RFC 8785's) apply. */
function visitJson(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      tape[at++] = value;
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw REFUSE;
      tape[at++] = value;
      return value;
    case 'object':
      break;
    default:
      throw REFUSE;
  }
  if (value === null) {
    tape[at++] = null;
    return null;
  }
  if (!Array.isArray(value)) return visitMap(undefined, value, depth);
  checkContainer(value, depth, true);
  const n = value.length;
  tape[at++] = TAPE_ARRAY;
  tape[at++] = n;
  let copy: unknown[] | undefined;
  for (let i = 0; i < n; i++) {
    const item: unknown = value[i];
    if (item === undefined) throw REFUSE;
    const kid = visitJson(item, depth + 1);
    if (kid !== item && copy === undefined) copy = value.slice(0, i) as unknown[];
    if (copy !== undefined) copy.push(kid);
  }
  return copy ?? value;
}
