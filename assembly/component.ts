// The core in the canonical-ABI shape of the `ctxgate:core/ctxgate` world (wit/ctxgate.wit), for
// the WebAssembly Component build (build/component.mjs). It adds no second implementation: each
// adapter lifts the component's lowered arguments into the numeric calls the SDK's own core makes
// (assembly/sha256.ts, checksum.ts, sort.ts, scan/, tokens/) and lowers their output-window results back.
//
// Export names: the canonical ABI wants the WIT names (`sha256-hex`, `cabi_post_sha256-hex`), which
// are not AssemblyScript identifiers, so functions here use `_` for `-` and the build renames the
// exports (every `_` after an optional `cabi_post_` prefix; `cabi_realloc` and `memory` stay).
//
// Memory: the host allocates every argument with cabi_realloc and hands it over, so adapters free
// their inputs once the core has read them. Results that own memory are heap blocks freed by the
// matching `cabi_post_*`, which the host calls after it has copied the result out. Calls never
// re-enter, so one static return area serves every function.
import { ioOutput, ioOutputLen } from './io';
import { crc32 as crc32Core, utf8Validate } from './checksum';
import { sha256 as sha256Core } from './sha256';
import { sortBlocks } from './sort';
import { secretScan } from './scan/scan';
import { tokensEstimate, tokensEstimatorVersion } from './tokens/estimate';
import { RULE_META_COUNT, RULE_TEXT, RULE_TEXT_OFFSETS, RULE_CONFIDENCE } from './component/rules.generated';

// Return area for results that flatten to more than one value (lists, strings, results).
const RET: usize = memory.data(16, 8);
// Zero-byte allocations get this address and are never freed, so an empty list costs no heap block
// and freeing "whatever the host passed for an empty list" is never needed.
const EMPTY: usize = memory.data(16, 16);

/** Canonical ABI allocator: the host lowers every list and string argument through it. */
export function cabi_realloc(oldPtr: usize, oldSize: usize, align: usize, newSize: usize): usize {
  // TLSF blocks are 16-byte aligned, which covers every alignment this world uses (at most 4).
  if (newSize == 0) {
    release(oldPtr);
    return EMPTY;
  }
  if (oldPtr == 0 || oldPtr == EMPTY) return heap.alloc(newSize);
  return heap.realloc(oldPtr, newSize);
}

// @ts-ignore: decorator
@inline
function release(ptr: usize): void {
  if (ptr != 0 && ptr != EMPTY) heap.free(ptr);
}

/** A heap block of `len` bytes, or EMPTY for none (so post-return can release it uniformly). */
// @ts-ignore: decorator
@inline
function alloc(len: usize): usize {
  return len == 0 ? EMPTY : heap.alloc(len);
}

/**
 * Copies the core's output window into an owned block and stores the list (ptr, element count) at
 * `at`; elements are `1 << elemShift` bytes.
 */
function takeOutput(at: usize, elemShift: usize): void {
  const len = ioOutputLen();
  const ptr = alloc(len);
  memory.copy(ptr, ioOutput(), len);
  store<usize>(at, ptr, 0);
  store<usize>(at, len >> elemShift, 4);
}

/** Hashes into the output window, then frees the input. */
// @ts-ignore: decorator
@inline
function digest(ptr: usize, len: usize): void {
  sha256Core(ptr, len);
  release(ptr);
}

// sha256: func(data: list<u8>) -> list<u8>
export function sha256(ptr: usize, len: usize): usize {
  digest(ptr, len);
  takeOutput(RET, 0);
  return RET;
}

export function cabi_post_sha256(ret: usize): void {
  release(load<usize>(ret));
}

// sha256-hex: func(data: list<u8>) -> string
export function sha256_hex(ptr: usize, len: usize): usize {
  digest(ptr, len);
  const src = ioOutput();
  const out = heap.alloc(64);
  for (let i: usize = 0; i < 32; i++) {
    const b = <u32>load<u8>(src + i);
    store<u8>(out + (i << 1), hexDigit(b >> 4));
    store<u8>(out + (i << 1) + 1, hexDigit(b & 15));
  }
  store<usize>(RET, out, 0);
  store<usize>(RET, 64, 4);
  return RET;
}

export function cabi_post_sha256_hex(ret: usize): void {
  release(load<usize>(ret));
}

// @ts-ignore: decorator
@inline
function hexDigit(n: u32): u8 {
  return <u8>(n < 10 ? 0x30 + n : 0x57 + n);
}

// sha256-batch: func(items: list<list<u8>>) -> list<list<u8>>
// The result is one block: `count` (ptr, len) pairs followed by the digests they point at.
export function sha256_batch(items: usize, count: usize): usize {
  const out = alloc(count * 40);
  const digests = out + count * 8;
  for (let i: usize = 0; i < count; i++) {
    const item = items + i * 8;
    digest(load<usize>(item, 0), load<usize>(item, 4));
    const d = digests + (i << 5);
    memory.copy(d, ioOutput(), 32);
    store<usize>(out + i * 8, d, 0);
    store<usize>(out + i * 8, 32, 4);
  }
  release(items);
  store<usize>(RET, out, 0);
  store<usize>(RET, count, 4);
  return RET;
}

export function cabi_post_sha256_batch(ret: usize): void {
  release(load<usize>(ret));
}

// crc32: func(data: list<u8>, seed: u32) -> u32
export function crc32(ptr: usize, len: usize, seed: u32): u32 {
  const c = crc32Core(ptr, len, seed);
  release(ptr);
  return c;
}

// utf8-check: func(data: list<u8>) -> result<u32, u32>
export function utf8_check(ptr: usize, len: usize): usize {
  const r = utf8Validate(ptr, len);
  release(ptr);
  store<u8>(RET, r >= 0 ? 0 : 1, 0);
  store<u32>(RET, r >= 0 ? <u32>r : <u32>(-r - 1), 4);
  return RET;
}

// sort-blocks: func(items: list<block-key>) -> result<list<u32>, string>
// block-key lowers to 12 bytes: priority u8 @0, block-type-rank u8 @1, key (ptr, len) @4.
const BLOCK_KEY_SIZE: usize = 12;
const PRIORITY_MAX: u32 = 3;
const BLOCK_TYPE_RANK_MAX: u32 = 6;

export function sort_blocks(items: usize, count: usize): usize {
  let bad: isize = -1;
  for (let i: usize = 0; i < count; i++) {
    const rec = items + i * BLOCK_KEY_SIZE;
    if (<u32>load<u8>(rec, 0) > PRIORITY_MAX || <u32>load<u8>(rec, 1) > BLOCK_TYPE_RANK_MAX) {
      bad = <isize>i;
      break;
    }
  }
  if (bad >= 0) {
    const rec = items + <usize>bad * BLOCK_KEY_SIZE;
    const p = <u32>load<u8>(rec, 0);
    const t = <u32>load<u8>(rec, 1);
    const message =
      p > PRIORITY_MAX
        ? `items[${bad}].priority must be 0..3 (P0..P3), got ${p}`
        : `items[${bad}].block-type-rank must be 0..6 (system, constraints, project_meta, file, symbol, error_context, diff_hint), got ${t}`;
    freeBlockKeys(items, count);
    store<u8>(RET, 1, 0);
    storeString(RET + 4, message);
    return RET;
  }
  // sortBlocks reads (group, key offset, key length) records with offsets relative to a key base;
  // a base of 0 lets the offsets be the keys' own addresses, so no key is copied.
  const meta = alloc(count * 12);
  for (let i: usize = 0; i < count; i++) {
    const rec = items + i * BLOCK_KEY_SIZE;
    store<u32>(meta + i * 12, (<u32>load<u8>(rec, 0) << 8) | <u32>load<u8>(rec, 1), 0);
    store<u32>(meta + i * 12, load<u32>(rec, 4), 4);
    store<u32>(meta + i * 12, load<u32>(rec, 8), 8);
  }
  sortBlocks(meta, 0, <u32>count);
  release(meta);
  freeBlockKeys(items, count);
  store<u8>(RET, 0, 0);
  takeOutput(RET + 4, 2);
  return RET;
}

export function cabi_post_sort_blocks(ret: usize): void {
  release(load<usize>(ret, 4));
}

// scan-secrets: func(data: list<u8>) -> list<secret-finding>
// secret-finding lowers to 24 bytes: rule-index u32 @0, rule-id (ptr, len) @4, confidence u8 @12,
// start u32 @16, end u32 @20. Rule ids point into static data; only the list block is owned.
const FINDING_SIZE: usize = 24;

export function scan_secrets(ptr: usize, len: usize): usize {
  const n = <usize>secretScan(ptr, len);
  release(ptr);
  // The scanner left n records of four u32 in the output window: rule, start, end, confidence (1 high).
  const src = ioOutput();
  const out = alloc(n * FINDING_SIZE);
  for (let k: usize = 0; k < n; k++) {
    const r = load<u32>(src + (k << 4), 0);
    const f = out + k * FINDING_SIZE;
    store<u32>(f, r, 0);
    storeRuleText(f + 4, <usize>r << 1);
    store<u8>(f, load<u32>(src + (k << 4), 12) == 1 ? 0 : 1, 12);
    store<u32>(f, load<u32>(src + (k << 4), 4), 16);
    store<u32>(f, load<u32>(src + (k << 4), 8), 20);
  }
  store<usize>(RET, out, 0);
  store<usize>(RET, n, 4);
  return RET;
}

export function cabi_post_scan_secrets(ret: usize): void {
  release(load<usize>(ret));
}

// secret-rules: func() -> list<secret-rule>
// secret-rule lowers to 20 bytes: id (ptr, len) @0, description (ptr, len) @8, confidence u8 @16.
const RULE_SIZE: usize = 20;

export function secret_rules(): usize {
  const n = <usize>RULE_META_COUNT;
  const out = alloc(n * RULE_SIZE);
  for (let k: usize = 0; k < n; k++) {
    const r = out + k * RULE_SIZE;
    storeRuleText(r, k << 1);
    storeRuleText(r + 8, (k << 1) + 1);
    store<u8>(r, load<u8>(RULE_CONFIDENCE + k), 16);
  }
  store<usize>(RET, out, 0);
  store<usize>(RET, n, 4);
  return RET;
}

export function cabi_post_secret_rules(ret: usize): void {
  release(load<usize>(ret));
}

/** Stores (ptr, len) of the `i`-th string of the rule text table at `at`. */
function storeRuleText(at: usize, i: usize): void {
  const from = load<u32>(RULE_TEXT_OFFSETS + (i << 2));
  const to = load<u32>(RULE_TEXT_OFFSETS + ((i + 1) << 2));
  store<usize>(at, RULE_TEXT + <usize>from, 0);
  store<usize>(at, <usize>(to - from), 4);
}

// estimate-tokens: func(text: string, encoding: token-encoding) -> u32
// The WIT enum's order (o200k-base, cl100k-base) is the core's encoding code.
export function estimate_tokens(ptr: usize, len: usize, encoding: u32): u32 {
  const t = tokensEstimate(ptr, len, <i32>encoding);
  release(ptr);
  return t;
}

// estimator-version: func() -> u32
export function estimator_version(): u32 {
  return tokensEstimatorVersion();
}

function freeBlockKeys(items: usize, count: usize): void {
  for (let i: usize = 0; i < count; i++) release(load<usize>(items + i * BLOCK_KEY_SIZE, 4));
  release(items);
}

/** Encodes `s` as UTF-8 into an owned block; stores (ptr, len) at `at`. */
function storeString(at: usize, s: string): void {
  const bytes = String.UTF8.encode(s);
  const len = <usize>bytes.byteLength;
  const ptr = alloc(len);
  memory.copy(ptr, changetype<usize>(bytes), len);
  store<usize>(at, ptr, 0);
  store<usize>(at, len, 4);
}
