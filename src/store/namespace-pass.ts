import { FORBIDDEN_KEYS, MAX_VALUE_DEPTH, inheritsEnumerableMembers } from './json-safety.ts';
import { codePointLength } from '../encoding/utf16.ts';
import { utf8ByteLength } from '../encoding/utf8-size.ts';
import type { JsonTape } from './json-tape.ts';
import { TAPE_ARRAY, TAPE_OBJECT, releaseTapeArray, takeTapeArray } from './json-tape.ts';
import type { Plan } from './schema-plan.ts';
import { INDEX_LIKE, PLAN_ARRAY, PLAN_BOOLEAN, PLAN_NUMBER, PLAN_OBJECT, PLAN_RECORD, PLAN_STRING, PLAN_ZOD, passesZodChecks } from './schema-plan.ts';

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
  /** How `canonical` was put together; see {@link canonicalBytes}. */
  readonly parts: CanonicalParts;
}

/** The text JSON.stringify wrote, with placeholders, and the long strings they stand for, by number. */
export interface CanonicalParts {
  readonly text: string;
  readonly longs: readonly string[];
}

// Walk state, as module variables (faster than fields in this hot walk). The tape is written into
// json-tape.ts's reused scratch array and copied out at the end at its exact size, so a first walk
// neither leaves the garbage of a growing array nor retains its spare capacity in the memo. `kids`
// is a stack of member copies: an object's members are visited in their own order (the tape's)
// and their copies parked in slots by RFC 8785 position, then inserted into the copy in that order.
let tape: unknown[] = [];
let at = 0;
/** A `kids` stack longer than this (a huge namespace) is cut back after use rather than kept. */
const MAX_KIDS = 1 << 16;
/** Long strings of the namespace, in the copy as placeholders; see {@link written}. */
let longs: string[] = [];
/** The walk only checks and records: long strings stay in place and no copy needs writing. */
let checking = false;
const kids: unknown[] = [];
let top = 0;

/** What one walk found: the copy to write, the tape and the long strings held out of the copy. */
interface Walked {
  readonly copy: unknown;
  readonly tape: JsonTape;
  readonly longs: string[];
}

/**
 * Walks namespace `value` against `plan`: checks it, records its tape and, unless `checkOnly`,
 * builds the copy to write. Undefined if the full path must decide.
 */
function walkNamespace(plan: Plan, value: unknown, checkOnly: boolean): Walked | undefined {
  // Member enumeration below (for-in) also yields inherited enumerable members, which JSON and
  // Object.keys leave out; a polluted Object.prototype is left to the full path.
  if (inheritsEnumerableMembers()) return undefined;
  // Saved and restored, so a getter that itself serialises a context cannot upset this walk.
  const outerTape = tape;
  const outerAt = at;
  const outerTop = top;
  const outerLongs = longs;
  const outerChecking = checking;
  tape = takeTapeArray();
  at = 0;
  longs = [];
  checking = checkOnly;
  try {
    const copy = visit(plan, value, 1);
    return { copy, tape: tape.slice(0, at), longs };
  } catch (error) {
    if (error !== REFUSE) throw error;
    return undefined;
  } finally {
    // Drop what the walk parked, so nothing outlives it.
    releaseTapeArray(tape, at);
    if (kids.length > MAX_KIDS) kids.length = outerTop;
    else kids.fill(undefined, outerTop);
    top = outerTop;
    tape = outerTape;
    at = outerAt;
    longs = outerLongs;
    checking = outerChecking;
  }
}

/**
 * Checks namespace `value` against `plan` as a member of a context (one level deep, as the
 * JSON-safety walk over a whole context sees it) and returns its tape, or undefined if the full
 * path (the JSON-safety walk and zod) must decide. For loading: nothing is written or copied.
 */
export function checkNamespace(plan: Plan, value: unknown): JsonTape | undefined {
  return walkNamespace(plan, value, true)?.tape;
}

/**
 * Checks namespace `value` against `plan` as a member of a context (one level deep, as the
 * JSON-safety walk over a whole context sees it), and returns its tape and canonical text, or
 * undefined if the full path must decide.
 */
export function passNamespace(plan: Plan, value: unknown): PassedNamespace | undefined {
  const walked = walkNamespace(plan, value, false);
  if (walked === undefined) return undefined;
  const { copy, tape: recorded, longs: found } = walked;
  const text = JSON.stringify(copy);
  // JSON.stringify writes a lone surrogate (refused by RFC 8785) as a \uDXXX escape; a string that
  // contains the text "\ud" is written with that sequence too and only costs the full path. (The
  // long strings left out of this text have neither a backslash nor a surrogate.)
  if (text.includes('\\ud')) return undefined;
  const canonical = found.length === 0 ? text : withLongStrings(text, found);
  return canonical === undefined ? undefined : { tape: recorded, canonical, parts: { text, longs: found } };
}

/**
 * UTF-8 bytes of the canonical text put together from `parts`, counted from the parts (no text is
 * joined): the bytes of the placeholder text, less each placeholder's (U+E000 is three bytes, then
 * its number), plus each long string's. RFC 8785 text holds the same members and values as
 * `JSON.stringify` text, only in another order, so this is also the namespace's JSON size.
 */
export function canonicalBytes(parts: CanonicalParts): number {
  let bytes = utf8ByteLength(parts.text);
  const longs = parts.longs;
  for (let k = 0; k < longs.length; k++) bytes += utf8ByteLength(longs[k]!) - 3 - String(k).length;
  return bytes;
}

// Long strings are not handed to JSON.stringify: V8's writes a string on a slow path, character
// by character, unless eight times its length still fits in the output chunk it is filling, which
// a long string rarely does. A long string with nothing to escape (one native scan, below) is its
// own JSON text between two quotes, so the copy holds a short placeholder instead, and the text is
// put together from JSON.stringify's output and the strings themselves.

/** Strings at least this long are written by {@link withLongStrings}. */
const LONG = 128;
/** Nothing JSON escapes and no surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f\uD800-\uDFFF]*$/;
/** Starts a placeholder: a private-use character JSON writes as it is; its number follows. */
const MARK = '\uE000';

/** Placeholders by number, made once and reused (the first few thousand). */
const placeholders: string[] = [];
const MAX_PLACEHOLDERS = 4096;

/** The string for the copy: `s` itself, or a placeholder for it if it is long and plain. */
function written(s: string): string {
  if (s.length < LONG || checking || !PLAIN.test(s)) return s;
  const k = longs.length;
  longs.push(s);
  if (k >= MAX_PLACEHOLDERS) return MARK + k;
  return placeholders[k] ?? (placeholders[k] = MARK + k);
}

/**
 * `text` with each placeholder replaced by its string, or undefined if the mark appears anywhere
 * else (in a string of the data). Each placeholder is in the text exactly once, so any other mark
 * makes one too many; it also shows as a malformed, out-of-range or repeated number (either check
 * alone would do).
 */
function withLongStrings(text: string, strings: readonly string[]): string | undefined {
  const seen = new Uint8Array(strings.length);
  let out = '';
  let from = 0;
  let found = 0;
  for (let mark = text.indexOf(MARK); mark >= 0; mark = text.indexOf(MARK, from)) {
    // The placeholder's number, up to its closing quote.
    let k = 0;
    let end = mark + 1;
    for (let c = text.charCodeAt(end); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++end)) k = k * 10 + (c - 0x30);
    if (end === mark + 1 || text.charCodeAt(end) !== 0x22 || k >= strings.length || seen[k] === 1) return undefined;
    seen[k] = 1;
    found++;
    out += text.slice(from, mark) + strings[k]!;
    from = end;
  }
  return found === strings.length ? out + text.slice(from) : undefined;
}

function visit(plan: Plan, value: unknown, depth: number): unknown {
  switch (plan.kind) {
    case PLAN_STRING:
      if (typeof value !== 'string') throw REFUSE;
      checkString(plan, value);
      tape[at++] = value;
      return written(value);
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
  if (min > 0 && (value.length < min || (value.length < 2 * min && codePointLength(value) < min))) throw REFUSE;
  const patterns = plan.patterns;
  for (let i = 0; i < patterns.length; i++) if (!patterns[i]!.test(value)) throw REFUSE;
  if (plan.zodChecks.length > 0 && !passesZodChecks(plan.zodChecks, value)) throw REFUSE;
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
    if (kid !== item && copy === undefined) copy = copyOfFirst(items, i);
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
      kid = member.length < LONG ? member : written(member);
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
  if (!asIs && !checking) {
    const names = plan.sortedKeys;
    out = cloneTemplate(plan);
    for (let i = 0; i < n; i++) {
      const kid = kids[base + i];
      if (kid !== undefined) out[names[i]!] = kid;
    }
  }
  top = base;
  return out;
}

/**
 * A clone of the plan's template. Engines cache how to clone an object per place in the code and
 * give up caching beyond a few object shapes; one place for every kind of object would clone them
 * all the slow way, so the kinds are spread over a few places by plan.
 */
function cloneTemplate(plan: Plan): Record<string, unknown> {
  const t = plan.template;
  switch (plan.cloneSite) {
    case 0:
      return { ...t };
    case 1:
      return { ...t };
    case 2:
      return { ...t };
    case 3:
      return { ...t };
    case 4:
      return { ...t };
    case 5:
      return { ...t };
    case 6:
      return { ...t };
    default:
      return { ...t };
  }
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
  if (!asIs && !checking) {
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
      tape[at++] = value;
      return written(value);
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
    if (kid !== item && copy === undefined) copy = copyOfFirst(value, i);
    if (copy !== undefined) copy.push(kid);
  }
  return copy ?? value;
}

/** A plain array of the first `n` items (not `slice`, which would construct an array subclass). */
function copyOfFirst(items: readonly unknown[], n: number): unknown[] {
  const copy: unknown[] = [];
  for (let i = 0; i < n; i++) copy.push(items[i]);
  return copy;
}
