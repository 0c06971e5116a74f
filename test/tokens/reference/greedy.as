// FROZEN REFERENCE (test only): ctxgate-est/1 as first shipped, before the single-pass rewrite.
// See entry.as. Do not edit.
// Vocabulary membership and the greedy longest-match count that stands in for BPE merges.
//
// Both vocabularies share one table of 16-bit entries (vocab.generated.ts): a bucketed cuckoo
// table, four slots per bucket, two candidate buckets per token. An entry is a 14-bit fingerprint
// of the token's bytes and one flag bit per encoding. A lookup of bytes that are no token compares
// at most eight entries, so it matches by chance at most about once in 2^14 / 8 = 2048 lookups:
// false hits (which would make tokens too long and the count too low) stay rare even though every
// byte prefix of a piece is looked up. (The Bloom filters this replaced had a 1.5% false-hit rate,
// which made the estimate's spread per document several times larger.)
//
// Greedy longest-prefix matching against the vocabulary lands close to what byte-pair merging
// produces; the calibration tables correct what is left, per piece class.
import { VOCAB_TABLE, VOCAB_BUCKET_LOG2 } from '../../../assembly/tokens/vocab.generated';

/** Longest token prefix tried, in bytes. Longer tokens (long runs of spaces or `=`) count as several. */
export const MAX_TOKEN_BYTES: usize = 32;
/**
 * Bytes past the last match after which no longer token is looked for. Tokens whose own prefixes
 * are no tokens for longer than this are rare; the limit bounds the work on long pieces.
 */
const MAX_MISSES: usize = 8;

/** Flag bit of an encoding in a table entry (encoding 0 = o200k_base, 1 = cl100k_base). */
// @ts-ignore: decorator
@inline
export function vocabFlag(enc: i32): u32 {
  return <u32>1 << <u32>enc;
}

// @ts-ignore: decorator
@inline
function fmix(h: u32): u32 {
  h ^= h >>> 16;
  h *= 0x85ebca6b;
  h ^= h >>> 13;
  h *= 0xc2b2ae35;
  h ^= h >>> 16;
  return h;
}

// @ts-ignore: decorator
@inline
function bucketHas(w: u64, want: u32, flag: u32): bool {
  // Four u16 entries; an entry matches when its fingerprint equals `want` and it carries `flag`.
  for (let s: u64 = 0; s < 64; s += 16) {
    const e = <u32>((w >>> s) & 0xffff);
    if (e >>> 2 == want && (e & flag) != 0) return true;
  }
  return false;
}

/** Whether the bytes with FNV-1a hash `h` are a token of the encoding with flag bit `flag`. */
// @ts-ignore: decorator
@inline
function isToken(h: u32, flag: u32): bool {
  const mask: u32 = (<u32>1 << VOCAB_BUCKET_LOG2) - 1;
  const f = fmix(h);
  const b1 = f & mask;
  const want = (f >>> 18) & 0x3fff;
  const w1 = load<u64>(VOCAB_TABLE + (<usize>b1 << 3));
  if (bucketHas(w1, want, flag)) return true;
  // A token sits in its second bucket only when its first was full (the table has no deletions),
  // so a first bucket with an empty slot settles the lookup.
  if ((w1 & 0xffff) == 0 || (w1 & 0xffff0000) == 0 || (w1 & 0xffff00000000) == 0 || (w1 >>> 48) == 0) return false;
  let b2 = (b1 ^ fmix(f ^ 0x9e3779b9)) & mask;
  if (b2 == b1) b2 = b1 ^ 1;
  return bucketHas(load<u64>(VOCAB_TABLE + (<usize>b2 << 3)), want, flag);
}

/**
 * Number of tokens greedy longest-match gives for the bytes [p, e) against the vocabulary of the
 * encoding with flag bit `flag`.
 */
export function greedyCount(p: usize, e: usize, flag: u32): u32 {
  let n: u32 = 0;
  while (p < e) {
    const rest = e - p;
    let h: u32 = (0x811c9dc5 ^ <u32>load<u8>(p)) * 0x01000193;
    // Every byte is a token. Prefixes may end inside a character: where a character's bytes are no
    // token, BPE splits them into byte-sequence tokens too (most non-Latin text in cl100k_base).
    let best: usize = 1;
    if (rest <= MAX_TOKEN_BYTES && rest > 1) {
      // Most pieces are one token: try the whole rest first.
      let hw = h;
      for (let k: usize = 1; k < rest; k++) hw = (hw ^ <u32>load<u8>(p + k)) * 0x01000193;
      if (isToken(hw, flag)) {
        n++;
        break;
      }
    }
    const lim = rest < MAX_TOKEN_BYTES ? rest : MAX_TOKEN_BYTES;
    let misses: usize = 0;
    for (let k: usize = 1; k < lim; k++) {
      h = (h ^ <u32>load<u8>(p + k)) * 0x01000193;
      if (isToken(h, flag)) {
        best = k + 1;
        misses = 0;
      } else if (++misses >= MAX_MISSES) break;
    }
    p += best;
    n++;
  }
  return n;
}

// Recent pieces and their counts, keyed by two independent 32-bit hashes, the length and the
// encoding: natural text repeats its words, and a hit costs one read of this small table instead
// of several lookups in the large one.
const CACHE_LOG2: u32 = 12;
/** Pieces longer than this are counted directly (they rarely repeat). */
const CACHE_MAX_BYTES: usize = 48;
const cache = memory.data(16 << CACHE_LOG2);

/**
 * {@link greedyCount} of the piece [p, e), through a cache of recent pieces. The result does not
 * depend on what was counted before (a hit needs both hashes, the length and the encoding to match).
 */
export function pieceCount(p: usize, e: usize, flag: u32): u32 {
  const len = e - p;
  if (len <= 1) return <u32>len;
  if (len > CACHE_MAX_BYTES) return greedyCount(p, e, flag);
  let h1: u32 = 0x811c9dc5;
  let h2: u32 = 0x27d4eb2f;
  for (let q = p; q < e; q++) {
    const b = <u32>load<u8>(q);
    h1 = (h1 ^ b) * 0x01000193;
    h2 = (h2 + b) * 0x2c1b3c6d + 0x297a2d39;
  }
  const tag = (<u32>len << 8) | flag;
  const slot = cache + (<usize>(fmix(h1 ^ tag) >>> (32 - CACHE_LOG2)) << 4);
  if (load<u32>(slot) == h1 && load<u32>(slot, 4) == h2 && load<u32>(slot, 8) == tag) return load<u32>(slot, 12);
  const n = greedyCount(p, e, flag);
  store<u32>(slot, h1);
  store<u32>(slot, h2, 4);
  store<u32>(slot, tag, 8);
  store<u32>(slot, n, 12);
  return n;
}
