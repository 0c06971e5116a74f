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
import { VOCAB_TABLE, VOCAB_BUCKET_LOG2 } from './vocab.generated';

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

// A bucket is four u16 entries in one u64, compared all at once (SWAR): no loop, no branch per slot.
const LANES_LOW15: u64 = 0x7fff7fff7fff7fff;
const LANES_FINGERPRINT: u64 = 0xfffcfffcfffcfffc;
const LANES_ONE: u64 = 0x0001000100010001;

/** Bit 15 of each 16-bit lane of `y` that is zero; every other bit clear. */
// @ts-ignore: decorator
@inline
function zeroLanes(y: u64): u64 {
  return ~(((y & LANES_LOW15) + LANES_LOW15) | y | LANES_LOW15);
}

/**
 * Whether the bucket `w` has an entry whose fingerprint is `want` (pre-shifted into every lane as
 * `wantLanes`) and that carries the encoding's flag bit `enc`.
 */
// @ts-ignore: decorator
@inline
function bucketHas(w: u64, wantLanes: u64, enc: u64): bool {
  // Lanes equal in fingerprint, then bit `enc` of each such lane moved to bit 15 of that lane.
  return (zeroLanes((w ^ wantLanes) & LANES_FINGERPRINT) & (w << (15 - enc))) != 0;
}

/** Whether the bytes with FNV-1a hash `h` are a token of the encoding with flag bit `flag`. */
// @ts-ignore: decorator
@inline
export function isToken(h: u32, flag: u32): bool {
  const mask: u32 = (<u32>1 << VOCAB_BUCKET_LOG2) - 1;
  const enc = <u64>(flag >>> 1); // flag is 1 << enc, enc 0 or 1
  const f = fmix(h);
  const b1 = f & mask;
  const wantLanes = <u64>(((f >>> 18) & 0x3fff) << 2) * LANES_ONE;
  const w1 = load<u64>(VOCAB_TABLE + (<usize>b1 << 3));
  if (bucketHas(w1, wantLanes, enc)) return true;
  // A token sits in its second bucket only when its first was full (the table has no deletions),
  // so a first bucket with an empty slot settles the lookup.
  if (zeroLanes(w1) != 0) return false;
  let b2 = (b1 ^ fmix(f ^ 0x9e3779b9)) & mask;
  if (b2 == b1) b2 = b1 ^ 1;
  return bucketHas(load<u64>(VOCAB_TABLE + (<usize>b2 << 3)), wantLanes, enc);
}

/**
 * Number of tokens greedy longest-match gives for the bytes [p, e) against the vocabulary of the
 * encoding with flag bit `flag`.
 */
export function greedyCount(p: usize, e: usize, flag: u32): u32 {
  return greedyFrom(p, e, flag, false);
}

/**
 * {@link greedyCount}; `wholeIsNoToken` tells that the caller already found the whole of [p, e)
 * (at most MAX_TOKEN_BYTES long) is no token, so the first step need not look it up again.
 */
function greedyFrom(p: usize, e: usize, flag: u32, wholeIsNoToken: bool): u32 {
  let n: u32 = 0;
  while (p < e) {
    const rest = e - p;
    let h: u32 = (0x811c9dc5 ^ <u32>load<u8>(p)) * 0x01000193;
    // Every byte is a token. Prefixes may end inside a character: where a character's bytes are no
    // token, BPE splits them into byte-sequence tokens too (most non-Latin text in cl100k_base).
    let best: usize = 1;
    let lim = rest < MAX_TOKEN_BYTES ? rest : MAX_TOKEN_BYTES;
    if (rest <= MAX_TOKEN_BYTES && rest > 1) {
      // Most pieces are one token: try the whole rest first.
      if (wholeIsNoToken) {
        wholeIsNoToken = false;
      } else {
        let hw = h;
        for (let k: usize = 1; k < rest; k++) hw = (hw ^ <u32>load<u8>(p + k)) * 0x01000193;
        if (isToken(hw, flag)) {
          n++;
          break;
        }
      }
      // The whole rest is no token, so the longest prefix needs no second look.
      lim = rest - 1;
    }
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

// Recent multi-token pieces and their counts, keyed by two independent 32-bit hashes, the length
// and the encoding: natural text repeats its words, and a hit costs one read of this table instead
// of the many lookups of a greedy walk. 16K slots (256 KiB of zeroed memory, not in the binary).
const CACHE_LOG2: u32 = 14;
/** Pieces longer than this are counted directly (they rarely repeat). */
const CACHE_MAX_BYTES: usize = 48;
const cache = memory.data(16 << CACHE_LOG2);

/** Seeds of the two piece hashes that key the count cache (see {@link countHashed}). */
export const PIECE_H1_SEED: u32 = 0x811c9dc5;
export const PIECE_H2_SEED: u32 = 0x27d4eb2f;

/** Folds byte `b` into the first piece hash (FNV-1a). */
// @ts-ignore: decorator
@inline
export function pieceH1(h: u32, b: u32): u32 {
  return (h ^ b) * 0x01000193;
}

/** Folds byte `b` into the second piece hash. */
// @ts-ignore: decorator
@inline
export function pieceH2(h: u32, b: u32): u32 {
  return (h + b) * 0x2c1b3c6d + 0x297a2d39;
}

/**
 * {@link greedyCount} of the piece [p, e) whose bytes hash to `h1` (from {@link PIECE_H1_SEED},
 * folded with {@link pieceH1}); the caller hashes the piece in the same pass that reads it for
 * other reasons. `h1` is also the vocabulary hash of the whole piece, so a piece
 * that is one token (most are) costs one vocabulary lookup, which is what greedy longest-match
 * starts with. Longer results go through a cache of recent pieces; a hit needs both hashes, the
 * length and the encoding to match, so the result does not depend on what was counted before.
 */
// @ts-ignore: decorator
@inline
export function countHashed(p: usize, e: usize, h1: u32, flag: u32): u32 {
  const len = e - p;
  if (len <= 1) return <u32>len;
  if (len > MAX_TOKEN_BYTES) return len > CACHE_MAX_BYTES ? greedyCount(p, e, flag) : countCached(p, e, h1, flag, false);
  if (isToken(h1, flag)) return 1;
  return countCached(p, e, h1, flag, true);
}

/**
 * Greedy count of the piece [p, e) (more than one byte) through the cache of recent pieces; `h1` as
 * for {@link countHashed}, `wholeIsNoToken` as for greedyFrom.
 */
export function countCached(p: usize, e: usize, h1: u32, flag: u32, wholeIsNoToken: bool): u32 {
  // The second key hash is only needed here, so pieces that are one token never compute it.
  let h2 = PIECE_H2_SEED;
  for (let q = p; q < e; q++) h2 = pieceH2(h2, <u32>load<u8>(q));
  const tag = (<u32>(e - p) << 8) | flag;
  const slot = cache + (<usize>(fmix(h1 ^ tag) >>> (32 - CACHE_LOG2)) << 4);
  if (load<u32>(slot) == h1 && load<u32>(slot, 4) == h2 && load<u32>(slot, 8) == tag) return load<u32>(slot, 12);
  const n = greedyFrom(p, e, flag, wholeIsNoToken);
  store<u32>(slot, h1);
  store<u32>(slot, h2, 4);
  store<u32>(slot, tag, 8);
  store<u32>(slot, n, 12);
  return n;
}
