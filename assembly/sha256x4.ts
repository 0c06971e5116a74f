// Multi-buffer SHA-256 (FIPS 180-4): four independent messages compressed at once, message i in
// 32-bit lane i of every i32x4 vector.
//
// The state h0..h7 of the four messages is eight i32x4 vectors kept in X4_STATE between calls, so
// the caller can start, finish or hand over one lane (sha256Batch does) with plain u32 loads and
// stores at X4_STATE + 16*j + 4*lane. Each call gathers one 64-byte block per lane, byte-swaps and
// transposes it so W[t] holds word t of all four blocks, expands the schedule, and runs the 64
// rounds with every scalar operation widened to i32x4. WebAssembly SIMD has no rotate, so each
// rotation is two shifts and an or; Ch is one bitselect, Maj a bitselect on a ^ c.

/** The four lanes' states: h0..h7 as eight i32x4 vectors (lane i at byte 4*i of each). */
export const X4_STATE: usize = memory.data(128, 16);

// The expanded message schedule W[0..63] of the current four blocks, one i32x4 per word.
const W: usize = memory.data(1024, 16);

// The round constants K[0..63] (section 4.2.2), each repeated in all four lanes.
const K4: usize = memory.data<u32>([
  0x428a2f98, 0x428a2f98, 0x428a2f98, 0x428a2f98, 0x71374491, 0x71374491, 0x71374491, 0x71374491,
  0xb5c0fbcf, 0xb5c0fbcf, 0xb5c0fbcf, 0xb5c0fbcf, 0xe9b5dba5, 0xe9b5dba5, 0xe9b5dba5, 0xe9b5dba5,
  0x3956c25b, 0x3956c25b, 0x3956c25b, 0x3956c25b, 0x59f111f1, 0x59f111f1, 0x59f111f1, 0x59f111f1,
  0x923f82a4, 0x923f82a4, 0x923f82a4, 0x923f82a4, 0xab1c5ed5, 0xab1c5ed5, 0xab1c5ed5, 0xab1c5ed5,
  0xd807aa98, 0xd807aa98, 0xd807aa98, 0xd807aa98, 0x12835b01, 0x12835b01, 0x12835b01, 0x12835b01,
  0x243185be, 0x243185be, 0x243185be, 0x243185be, 0x550c7dc3, 0x550c7dc3, 0x550c7dc3, 0x550c7dc3,
  0x72be5d74, 0x72be5d74, 0x72be5d74, 0x72be5d74, 0x80deb1fe, 0x80deb1fe, 0x80deb1fe, 0x80deb1fe,
  0x9bdc06a7, 0x9bdc06a7, 0x9bdc06a7, 0x9bdc06a7, 0xc19bf174, 0xc19bf174, 0xc19bf174, 0xc19bf174,
  0xe49b69c1, 0xe49b69c1, 0xe49b69c1, 0xe49b69c1, 0xefbe4786, 0xefbe4786, 0xefbe4786, 0xefbe4786,
  0x0fc19dc6, 0x0fc19dc6, 0x0fc19dc6, 0x0fc19dc6, 0x240ca1cc, 0x240ca1cc, 0x240ca1cc, 0x240ca1cc,
  0x2de92c6f, 0x2de92c6f, 0x2de92c6f, 0x2de92c6f, 0x4a7484aa, 0x4a7484aa, 0x4a7484aa, 0x4a7484aa,
  0x5cb0a9dc, 0x5cb0a9dc, 0x5cb0a9dc, 0x5cb0a9dc, 0x76f988da, 0x76f988da, 0x76f988da, 0x76f988da,
  0x983e5152, 0x983e5152, 0x983e5152, 0x983e5152, 0xa831c66d, 0xa831c66d, 0xa831c66d, 0xa831c66d,
  0xb00327c8, 0xb00327c8, 0xb00327c8, 0xb00327c8, 0xbf597fc7, 0xbf597fc7, 0xbf597fc7, 0xbf597fc7,
  0xc6e00bf3, 0xc6e00bf3, 0xc6e00bf3, 0xc6e00bf3, 0xd5a79147, 0xd5a79147, 0xd5a79147, 0xd5a79147,
  0x06ca6351, 0x06ca6351, 0x06ca6351, 0x06ca6351, 0x14292967, 0x14292967, 0x14292967, 0x14292967,
  0x27b70a85, 0x27b70a85, 0x27b70a85, 0x27b70a85, 0x2e1b2138, 0x2e1b2138, 0x2e1b2138, 0x2e1b2138,
  0x4d2c6dfc, 0x4d2c6dfc, 0x4d2c6dfc, 0x4d2c6dfc, 0x53380d13, 0x53380d13, 0x53380d13, 0x53380d13,
  0x650a7354, 0x650a7354, 0x650a7354, 0x650a7354, 0x766a0abb, 0x766a0abb, 0x766a0abb, 0x766a0abb,
  0x81c2c92e, 0x81c2c92e, 0x81c2c92e, 0x81c2c92e, 0x92722c85, 0x92722c85, 0x92722c85, 0x92722c85,
  0xa2bfe8a1, 0xa2bfe8a1, 0xa2bfe8a1, 0xa2bfe8a1, 0xa81a664b, 0xa81a664b, 0xa81a664b, 0xa81a664b,
  0xc24b8b70, 0xc24b8b70, 0xc24b8b70, 0xc24b8b70, 0xc76c51a3, 0xc76c51a3, 0xc76c51a3, 0xc76c51a3,
  0xd192e819, 0xd192e819, 0xd192e819, 0xd192e819, 0xd6990624, 0xd6990624, 0xd6990624, 0xd6990624,
  0xf40e3585, 0xf40e3585, 0xf40e3585, 0xf40e3585, 0x106aa070, 0x106aa070, 0x106aa070, 0x106aa070,
  0x19a4c116, 0x19a4c116, 0x19a4c116, 0x19a4c116, 0x1e376c08, 0x1e376c08, 0x1e376c08, 0x1e376c08,
  0x2748774c, 0x2748774c, 0x2748774c, 0x2748774c, 0x34b0bcb5, 0x34b0bcb5, 0x34b0bcb5, 0x34b0bcb5,
  0x391c0cb3, 0x391c0cb3, 0x391c0cb3, 0x391c0cb3, 0x4ed8aa4a, 0x4ed8aa4a, 0x4ed8aa4a, 0x4ed8aa4a,
  0x5b9cca4f, 0x5b9cca4f, 0x5b9cca4f, 0x5b9cca4f, 0x682e6ff3, 0x682e6ff3, 0x682e6ff3, 0x682e6ff3,
  0x748f82ee, 0x748f82ee, 0x748f82ee, 0x748f82ee, 0x78a5636f, 0x78a5636f, 0x78a5636f, 0x78a5636f,
  0x84c87814, 0x84c87814, 0x84c87814, 0x84c87814, 0x8cc70208, 0x8cc70208, 0x8cc70208, 0x8cc70208,
  0x90befffa, 0x90befffa, 0x90befffa, 0x90befffa, 0xa4506ceb, 0xa4506ceb, 0xa4506ceb, 0xa4506ceb,
  0xbef9a3f7, 0xbef9a3f7, 0xbef9a3f7, 0xbef9a3f7, 0xc67178f2, 0xc67178f2, 0xc67178f2, 0xc67178f2,
], 16);

// @ts-ignore: decorator
@inline
function rotr(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}

// @ts-ignore: decorator
@inline
function bigSigma0(x: v128): v128 {
  return v128.xor(v128.xor(rotr(x, 2), rotr(x, 13)), rotr(x, 22));
}

// @ts-ignore: decorator
@inline
function bigSigma1(x: v128): v128 {
  return v128.xor(v128.xor(rotr(x, 6), rotr(x, 11)), rotr(x, 25));
}

// @ts-ignore: decorator
@inline
function smallSigma0(x: v128): v128 {
  return v128.xor(v128.xor(rotr(x, 7), rotr(x, 18)), i32x4.shr_u(x, 3));
}

// @ts-ignore: decorator
@inline
function smallSigma1(x: v128): v128 {
  return v128.xor(v128.xor(rotr(x, 17), rotr(x, 19)), i32x4.shr_u(x, 10));
}

// Ch(e, f, g): f where e is set, else g.
// @ts-ignore: decorator
@inline
function ch(e: v128, f: v128, g: v128): v128 {
  return v128.bitselect(f, g, e);
}

// Maj(a, b, c): where a and c agree it is their value, elsewhere b decides.
// @ts-ignore: decorator
@inline
function maj(a: v128, b: v128, c: v128): v128 {
  return v128.bitselect(b, a, v128.xor(a, c));
}

// Big-endian words: reverses the bytes of each 32-bit lane.
// @ts-ignore: decorator
@inline
function bswap4(x: v128): v128 {
  return i8x16.shuffle(x, x, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/**
 * Loads words 4q..4q+3 (bytes `off`..`off`+15) of the four blocks and stores them transposed as
 * W[4q..4q+3], each holding that word of lanes 0..3.
 */
// @ts-ignore: decorator
@inline
function gather(p0: usize, p1: usize, p2: usize, p3: usize, off: usize): void {
  const r0 = bswap4(v128.load(p0 + off));
  const r1 = bswap4(v128.load(p1 + off));
  const r2 = bswap4(v128.load(p2 + off));
  const r3 = bswap4(v128.load(p3 + off));
  const t0 = i32x4.shuffle(r0, r1, 0, 4, 1, 5);
  const t1 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
  const t2 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
  const t3 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
  const w = W + (off << 2);
  v128.store(w, i32x4.shuffle(t0, t1, 0, 1, 4, 5), 0);
  v128.store(w, i32x4.shuffle(t0, t1, 2, 3, 6, 7), 16);
  v128.store(w, i32x4.shuffle(t2, t3, 0, 1, 4, 5), 32);
  v128.store(w, i32x4.shuffle(t2, t3, 2, 3, 6, 7), 48);
}

/**
 * Compresses one 64-byte block per lane into X4_STATE: lane i's block is at `p_i`. A lane whose
 * result does not matter still needs a readable block address.
 */
export function compress4(p0: usize, p1: usize, p2: usize, p3: usize): void {
  gather(p0, p1, p2, p3, 0);
  gather(p0, p1, p2, p3, 16);
  gather(p0, p1, p2, p3, 32);
  gather(p0, p1, p2, p3, 48);
  // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], addressed from W[t-16].
  for (let w = W, end = W + 48 * 16; w < end; w += 16) {
    const s = i32x4.add(i32x4.add(smallSigma1(v128.load(w, 224)), v128.load(w, 144)), i32x4.add(smallSigma0(v128.load(w, 16)), v128.load(w)));
    v128.store(w, s, 256);
  }
  let a = v128.load(X4_STATE, 0);
  let b = v128.load(X4_STATE, 16);
  let c = v128.load(X4_STATE, 32);
  let d = v128.load(X4_STATE, 48);
  let e = v128.load(X4_STATE, 64);
  let f = v128.load(X4_STATE, 80);
  let g = v128.load(X4_STATE, 96);
  let h = v128.load(X4_STATE, 112);
  let t1: v128;
  // Eight rounds per iteration with the working variables renamed instead of shuffled, so after
  // each iteration every name holds its own variable again.
  for (let w = W, k = K4, end = W + 1024; w < end; w += 128, k += 128) {
    t1 = i32x4.add(i32x4.add(i32x4.add(h, bigSigma1(e)), ch(e, f, g)), i32x4.add(v128.load(w, 0), v128.load(k, 0)));
    d = i32x4.add(d, t1);
    h = i32x4.add(t1, i32x4.add(bigSigma0(a), maj(a, b, c)));
    t1 = i32x4.add(i32x4.add(i32x4.add(g, bigSigma1(d)), ch(d, e, f)), i32x4.add(v128.load(w, 16), v128.load(k, 16)));
    c = i32x4.add(c, t1);
    g = i32x4.add(t1, i32x4.add(bigSigma0(h), maj(h, a, b)));
    t1 = i32x4.add(i32x4.add(i32x4.add(f, bigSigma1(c)), ch(c, d, e)), i32x4.add(v128.load(w, 32), v128.load(k, 32)));
    b = i32x4.add(b, t1);
    f = i32x4.add(t1, i32x4.add(bigSigma0(g), maj(g, h, a)));
    t1 = i32x4.add(i32x4.add(i32x4.add(e, bigSigma1(b)), ch(b, c, d)), i32x4.add(v128.load(w, 48), v128.load(k, 48)));
    a = i32x4.add(a, t1);
    e = i32x4.add(t1, i32x4.add(bigSigma0(f), maj(f, g, h)));
    t1 = i32x4.add(i32x4.add(i32x4.add(d, bigSigma1(a)), ch(a, b, c)), i32x4.add(v128.load(w, 64), v128.load(k, 64)));
    h = i32x4.add(h, t1);
    d = i32x4.add(t1, i32x4.add(bigSigma0(e), maj(e, f, g)));
    t1 = i32x4.add(i32x4.add(i32x4.add(c, bigSigma1(h)), ch(h, a, b)), i32x4.add(v128.load(w, 80), v128.load(k, 80)));
    g = i32x4.add(g, t1);
    c = i32x4.add(t1, i32x4.add(bigSigma0(d), maj(d, e, f)));
    t1 = i32x4.add(i32x4.add(i32x4.add(b, bigSigma1(g)), ch(g, h, a)), i32x4.add(v128.load(w, 96), v128.load(k, 96)));
    f = i32x4.add(f, t1);
    b = i32x4.add(t1, i32x4.add(bigSigma0(c), maj(c, d, e)));
    t1 = i32x4.add(i32x4.add(i32x4.add(a, bigSigma1(f)), ch(f, g, h)), i32x4.add(v128.load(w, 112), v128.load(k, 112)));
    e = i32x4.add(e, t1);
    a = i32x4.add(t1, i32x4.add(bigSigma0(b), maj(b, c, d)));
  }
  v128.store(X4_STATE, i32x4.add(a, v128.load(X4_STATE, 0)), 0);
  v128.store(X4_STATE, i32x4.add(b, v128.load(X4_STATE, 16)), 16);
  v128.store(X4_STATE, i32x4.add(c, v128.load(X4_STATE, 32)), 32);
  v128.store(X4_STATE, i32x4.add(d, v128.load(X4_STATE, 48)), 48);
  v128.store(X4_STATE, i32x4.add(e, v128.load(X4_STATE, 64)), 64);
  v128.store(X4_STATE, i32x4.add(f, v128.load(X4_STATE, 80)), 80);
  v128.store(X4_STATE, i32x4.add(g, v128.load(X4_STATE, 96)), 96);
  v128.store(X4_STATE, i32x4.add(h, v128.load(X4_STATE, 112)), 112);
}
