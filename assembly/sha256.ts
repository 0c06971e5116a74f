// SHA-256 (FIPS 180-4) over bytes in linear memory: one-shot, streaming, and batched.
//
// The 64 rounds are written out with the eight working variables renamed per round instead of
// shuffled, and the message schedule lives in 16 locals, so the hot loop does no memory traffic
// beyond reading the block (section 6.2.2 of the standard, round by round). Ch and Maj use their
// three-operation forms (Maj carries a ^ b into the next round). The NIST vectors in test/vectors/
// pin every round.
//
// A batch of two or more inputs goes through the four-lane kernel in sha256x4.ts when the build has
// SIMD (asconfig.json enables it for the SDK core): each lane works through its own queue of
// messages, and the last message left is finished here, on the scalar path.
import { outReserve } from './io';
import { compress4, X4_STATE } from './sha256x4';

// A state block: h0..h7 (32 bytes), total length in bytes (u64 at 32), buffered length (u32 at 40),
// then a 64-byte buffer at 48.
const STATE_SIZE: usize = 112;
const H_OFF: usize = 0;
const TOTAL_OFF: usize = 32;
const BUFLEN_OFF: usize = 40;
const BUF_OFF: usize = 48;

// The one-shot and batch functions reuse this state; streaming states are allocated per hash.
const SCRATCH: usize = memory.data(<i32>STATE_SIZE, 16);

function reset(s: usize): void {
  store<u32>(s, 0x6a09e667, 0);
  store<u32>(s, 0xbb67ae85, 4);
  store<u32>(s, 0x3c6ef372, 8);
  store<u32>(s, 0xa54ff53a, 12);
  store<u32>(s, 0x510e527f, 16);
  store<u32>(s, 0x9b05688c, 20);
  store<u32>(s, 0x1f83d9ab, 24);
  store<u32>(s, 0x5be0cd19, 28);
  store<u64>(s + TOTAL_OFF, 0);
  store<u32>(s + BUFLEN_OFF, 0);
}

/** Compresses `blocks` consecutive 64-byte blocks at `p` into the state `s`. */
function compress(s: usize, p: usize, blocks: usize): void {
  let a = load<u32>(s, 0);
  let b = load<u32>(s, 4);
  let c = load<u32>(s, 8);
  let d = load<u32>(s, 12);
  let e = load<u32>(s, 16);
  let f = load<u32>(s, 20);
  let g = load<u32>(s, 24);
  let h = load<u32>(s, 28);
  let t1: u32;
  for (let n: usize = 0; n < blocks; n++, p += 64) {
    const a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
    // Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and b ^ c is the previous round's a ^ b: x and y
    // carry it from round to round.
    let y = b ^ c;
    let x: u32;
  let w0 = bswap<u32>(load<u32>(p, 0));
  let w1 = bswap<u32>(load<u32>(p, 4));
  let w2 = bswap<u32>(load<u32>(p, 8));
  let w3 = bswap<u32>(load<u32>(p, 12));
  let w4 = bswap<u32>(load<u32>(p, 16));
  let w5 = bswap<u32>(load<u32>(p, 20));
  let w6 = bswap<u32>(load<u32>(p, 24));
  let w7 = bswap<u32>(load<u32>(p, 28));
  let w8 = bswap<u32>(load<u32>(p, 32));
  let w9 = bswap<u32>(load<u32>(p, 36));
  let w10 = bswap<u32>(load<u32>(p, 40));
  let w11 = bswap<u32>(load<u32>(p, 44));
  let w12 = bswap<u32>(load<u32>(p, 48));
  let w13 = bswap<u32>(load<u32>(p, 52));
  let w14 = bswap<u32>(load<u32>(p, 56));
  let w15 = bswap<u32>(load<u32>(p, 60));
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0x428a2f98 + w0;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0x71374491 + w1;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0xb5c0fbcf + w2;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0xe9b5dba5 + w3;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0x3956c25b + w4;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0x59f111f1 + w5;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0x923f82a4 + w6;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0xab1c5ed5 + w7;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0xd807aa98 + w8;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0x12835b01 + w9;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0x243185be + w10;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0x550c7dc3 + w11;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0x72be5d74 + w12;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0x80deb1fe + w13;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0x9bdc06a7 + w14;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0xc19bf174 + w15;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  w0 = (rotr<u32>(w14, 17) ^ rotr<u32>(w14, 19) ^ (w14 >>> 10)) + w9 + (rotr<u32>(w1, 7) ^ rotr<u32>(w1, 18) ^ (w1 >>> 3)) + w0;
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0xe49b69c1 + w0;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  w1 = (rotr<u32>(w15, 17) ^ rotr<u32>(w15, 19) ^ (w15 >>> 10)) + w10 + (rotr<u32>(w2, 7) ^ rotr<u32>(w2, 18) ^ (w2 >>> 3)) + w1;
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0xefbe4786 + w1;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  w2 = (rotr<u32>(w0, 17) ^ rotr<u32>(w0, 19) ^ (w0 >>> 10)) + w11 + (rotr<u32>(w3, 7) ^ rotr<u32>(w3, 18) ^ (w3 >>> 3)) + w2;
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0x0fc19dc6 + w2;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  w3 = (rotr<u32>(w1, 17) ^ rotr<u32>(w1, 19) ^ (w1 >>> 10)) + w12 + (rotr<u32>(w4, 7) ^ rotr<u32>(w4, 18) ^ (w4 >>> 3)) + w3;
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0x240ca1cc + w3;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  w4 = (rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10)) + w13 + (rotr<u32>(w5, 7) ^ rotr<u32>(w5, 18) ^ (w5 >>> 3)) + w4;
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0x2de92c6f + w4;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  w5 = (rotr<u32>(w3, 17) ^ rotr<u32>(w3, 19) ^ (w3 >>> 10)) + w14 + (rotr<u32>(w6, 7) ^ rotr<u32>(w6, 18) ^ (w6 >>> 3)) + w5;
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0x4a7484aa + w5;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  w6 = (rotr<u32>(w4, 17) ^ rotr<u32>(w4, 19) ^ (w4 >>> 10)) + w15 + (rotr<u32>(w7, 7) ^ rotr<u32>(w7, 18) ^ (w7 >>> 3)) + w6;
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0x5cb0a9dc + w6;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  w7 = (rotr<u32>(w5, 17) ^ rotr<u32>(w5, 19) ^ (w5 >>> 10)) + w0 + (rotr<u32>(w8, 7) ^ rotr<u32>(w8, 18) ^ (w8 >>> 3)) + w7;
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0x76f988da + w7;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  w8 = (rotr<u32>(w6, 17) ^ rotr<u32>(w6, 19) ^ (w6 >>> 10)) + w1 + (rotr<u32>(w9, 7) ^ rotr<u32>(w9, 18) ^ (w9 >>> 3)) + w8;
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0x983e5152 + w8;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  w9 = (rotr<u32>(w7, 17) ^ rotr<u32>(w7, 19) ^ (w7 >>> 10)) + w2 + (rotr<u32>(w10, 7) ^ rotr<u32>(w10, 18) ^ (w10 >>> 3)) + w9;
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0xa831c66d + w9;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  w10 = (rotr<u32>(w8, 17) ^ rotr<u32>(w8, 19) ^ (w8 >>> 10)) + w3 + (rotr<u32>(w11, 7) ^ rotr<u32>(w11, 18) ^ (w11 >>> 3)) + w10;
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0xb00327c8 + w10;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  w11 = (rotr<u32>(w9, 17) ^ rotr<u32>(w9, 19) ^ (w9 >>> 10)) + w4 + (rotr<u32>(w12, 7) ^ rotr<u32>(w12, 18) ^ (w12 >>> 3)) + w11;
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0xbf597fc7 + w11;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  w12 = (rotr<u32>(w10, 17) ^ rotr<u32>(w10, 19) ^ (w10 >>> 10)) + w5 + (rotr<u32>(w13, 7) ^ rotr<u32>(w13, 18) ^ (w13 >>> 3)) + w12;
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0xc6e00bf3 + w12;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  w13 = (rotr<u32>(w11, 17) ^ rotr<u32>(w11, 19) ^ (w11 >>> 10)) + w6 + (rotr<u32>(w14, 7) ^ rotr<u32>(w14, 18) ^ (w14 >>> 3)) + w13;
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0xd5a79147 + w13;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  w14 = (rotr<u32>(w12, 17) ^ rotr<u32>(w12, 19) ^ (w12 >>> 10)) + w7 + (rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3)) + w14;
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0x06ca6351 + w14;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  w15 = (rotr<u32>(w13, 17) ^ rotr<u32>(w13, 19) ^ (w13 >>> 10)) + w8 + (rotr<u32>(w0, 7) ^ rotr<u32>(w0, 18) ^ (w0 >>> 3)) + w15;
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0x14292967 + w15;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  w0 = (rotr<u32>(w14, 17) ^ rotr<u32>(w14, 19) ^ (w14 >>> 10)) + w9 + (rotr<u32>(w1, 7) ^ rotr<u32>(w1, 18) ^ (w1 >>> 3)) + w0;
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0x27b70a85 + w0;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  w1 = (rotr<u32>(w15, 17) ^ rotr<u32>(w15, 19) ^ (w15 >>> 10)) + w10 + (rotr<u32>(w2, 7) ^ rotr<u32>(w2, 18) ^ (w2 >>> 3)) + w1;
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0x2e1b2138 + w1;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  w2 = (rotr<u32>(w0, 17) ^ rotr<u32>(w0, 19) ^ (w0 >>> 10)) + w11 + (rotr<u32>(w3, 7) ^ rotr<u32>(w3, 18) ^ (w3 >>> 3)) + w2;
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0x4d2c6dfc + w2;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  w3 = (rotr<u32>(w1, 17) ^ rotr<u32>(w1, 19) ^ (w1 >>> 10)) + w12 + (rotr<u32>(w4, 7) ^ rotr<u32>(w4, 18) ^ (w4 >>> 3)) + w3;
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0x53380d13 + w3;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  w4 = (rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10)) + w13 + (rotr<u32>(w5, 7) ^ rotr<u32>(w5, 18) ^ (w5 >>> 3)) + w4;
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0x650a7354 + w4;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  w5 = (rotr<u32>(w3, 17) ^ rotr<u32>(w3, 19) ^ (w3 >>> 10)) + w14 + (rotr<u32>(w6, 7) ^ rotr<u32>(w6, 18) ^ (w6 >>> 3)) + w5;
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0x766a0abb + w5;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  w6 = (rotr<u32>(w4, 17) ^ rotr<u32>(w4, 19) ^ (w4 >>> 10)) + w15 + (rotr<u32>(w7, 7) ^ rotr<u32>(w7, 18) ^ (w7 >>> 3)) + w6;
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0x81c2c92e + w6;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  w7 = (rotr<u32>(w5, 17) ^ rotr<u32>(w5, 19) ^ (w5 >>> 10)) + w0 + (rotr<u32>(w8, 7) ^ rotr<u32>(w8, 18) ^ (w8 >>> 3)) + w7;
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0x92722c85 + w7;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  w8 = (rotr<u32>(w6, 17) ^ rotr<u32>(w6, 19) ^ (w6 >>> 10)) + w1 + (rotr<u32>(w9, 7) ^ rotr<u32>(w9, 18) ^ (w9 >>> 3)) + w8;
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0xa2bfe8a1 + w8;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  w9 = (rotr<u32>(w7, 17) ^ rotr<u32>(w7, 19) ^ (w7 >>> 10)) + w2 + (rotr<u32>(w10, 7) ^ rotr<u32>(w10, 18) ^ (w10 >>> 3)) + w9;
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0xa81a664b + w9;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  w10 = (rotr<u32>(w8, 17) ^ rotr<u32>(w8, 19) ^ (w8 >>> 10)) + w3 + (rotr<u32>(w11, 7) ^ rotr<u32>(w11, 18) ^ (w11 >>> 3)) + w10;
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0xc24b8b70 + w10;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  w11 = (rotr<u32>(w9, 17) ^ rotr<u32>(w9, 19) ^ (w9 >>> 10)) + w4 + (rotr<u32>(w12, 7) ^ rotr<u32>(w12, 18) ^ (w12 >>> 3)) + w11;
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0xc76c51a3 + w11;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  w12 = (rotr<u32>(w10, 17) ^ rotr<u32>(w10, 19) ^ (w10 >>> 10)) + w5 + (rotr<u32>(w13, 7) ^ rotr<u32>(w13, 18) ^ (w13 >>> 3)) + w12;
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0xd192e819 + w12;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  w13 = (rotr<u32>(w11, 17) ^ rotr<u32>(w11, 19) ^ (w11 >>> 10)) + w6 + (rotr<u32>(w14, 7) ^ rotr<u32>(w14, 18) ^ (w14 >>> 3)) + w13;
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0xd6990624 + w13;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  w14 = (rotr<u32>(w12, 17) ^ rotr<u32>(w12, 19) ^ (w12 >>> 10)) + w7 + (rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3)) + w14;
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0xf40e3585 + w14;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  w15 = (rotr<u32>(w13, 17) ^ rotr<u32>(w13, 19) ^ (w13 >>> 10)) + w8 + (rotr<u32>(w0, 7) ^ rotr<u32>(w0, 18) ^ (w0 >>> 3)) + w15;
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0x106aa070 + w15;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  w0 = (rotr<u32>(w14, 17) ^ rotr<u32>(w14, 19) ^ (w14 >>> 10)) + w9 + (rotr<u32>(w1, 7) ^ rotr<u32>(w1, 18) ^ (w1 >>> 3)) + w0;
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0x19a4c116 + w0;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  w1 = (rotr<u32>(w15, 17) ^ rotr<u32>(w15, 19) ^ (w15 >>> 10)) + w10 + (rotr<u32>(w2, 7) ^ rotr<u32>(w2, 18) ^ (w2 >>> 3)) + w1;
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0x1e376c08 + w1;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  w2 = (rotr<u32>(w0, 17) ^ rotr<u32>(w0, 19) ^ (w0 >>> 10)) + w11 + (rotr<u32>(w3, 7) ^ rotr<u32>(w3, 18) ^ (w3 >>> 3)) + w2;
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0x2748774c + w2;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  w3 = (rotr<u32>(w1, 17) ^ rotr<u32>(w1, 19) ^ (w1 >>> 10)) + w12 + (rotr<u32>(w4, 7) ^ rotr<u32>(w4, 18) ^ (w4 >>> 3)) + w3;
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0x34b0bcb5 + w3;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  w4 = (rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10)) + w13 + (rotr<u32>(w5, 7) ^ rotr<u32>(w5, 18) ^ (w5 >>> 3)) + w4;
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0x391c0cb3 + w4;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  w5 = (rotr<u32>(w3, 17) ^ rotr<u32>(w3, 19) ^ (w3 >>> 10)) + w14 + (rotr<u32>(w6, 7) ^ rotr<u32>(w6, 18) ^ (w6 >>> 3)) + w5;
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0x4ed8aa4a + w5;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  w6 = (rotr<u32>(w4, 17) ^ rotr<u32>(w4, 19) ^ (w4 >>> 10)) + w15 + (rotr<u32>(w7, 7) ^ rotr<u32>(w7, 18) ^ (w7 >>> 3)) + w6;
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0x5b9cca4f + w6;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  w7 = (rotr<u32>(w5, 17) ^ rotr<u32>(w5, 19) ^ (w5 >>> 10)) + w0 + (rotr<u32>(w8, 7) ^ rotr<u32>(w8, 18) ^ (w8 >>> 3)) + w7;
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0x682e6ff3 + w7;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
  w8 = (rotr<u32>(w6, 17) ^ rotr<u32>(w6, 19) ^ (w6 >>> 10)) + w1 + (rotr<u32>(w9, 7) ^ rotr<u32>(w9, 18) ^ (w9 >>> 3)) + w8;
  t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + 0x748f82ee + w8;
  d += t1;
  h = t1 + (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + (((x = a ^ b) & y) ^ b);
  w9 = (rotr<u32>(w7, 17) ^ rotr<u32>(w7, 19) ^ (w7 >>> 10)) + w2 + (rotr<u32>(w10, 7) ^ rotr<u32>(w10, 18) ^ (w10 >>> 3)) + w9;
  t1 = g + (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + 0x78a5636f + w9;
  c += t1;
  g = t1 + (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + (((y = h ^ a) & x) ^ a);
  w10 = (rotr<u32>(w8, 17) ^ rotr<u32>(w8, 19) ^ (w8 >>> 10)) + w3 + (rotr<u32>(w11, 7) ^ rotr<u32>(w11, 18) ^ (w11 >>> 3)) + w10;
  t1 = f + (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + 0x84c87814 + w10;
  b += t1;
  f = t1 + (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + (((x = g ^ h) & y) ^ h);
  w11 = (rotr<u32>(w9, 17) ^ rotr<u32>(w9, 19) ^ (w9 >>> 10)) + w4 + (rotr<u32>(w12, 7) ^ rotr<u32>(w12, 18) ^ (w12 >>> 3)) + w11;
  t1 = e + (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + 0x8cc70208 + w11;
  a += t1;
  e = t1 + (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + (((y = f ^ g) & x) ^ g);
  w12 = (rotr<u32>(w10, 17) ^ rotr<u32>(w10, 19) ^ (w10 >>> 10)) + w5 + (rotr<u32>(w13, 7) ^ rotr<u32>(w13, 18) ^ (w13 >>> 3)) + w12;
  t1 = d + (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + 0x90befffa + w12;
  h += t1;
  d = t1 + (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + (((x = e ^ f) & y) ^ f);
  w13 = (rotr<u32>(w11, 17) ^ rotr<u32>(w11, 19) ^ (w11 >>> 10)) + w6 + (rotr<u32>(w14, 7) ^ rotr<u32>(w14, 18) ^ (w14 >>> 3)) + w13;
  t1 = c + (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + 0xa4506ceb + w13;
  g += t1;
  c = t1 + (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + (((y = d ^ e) & x) ^ e);
  w14 = (rotr<u32>(w12, 17) ^ rotr<u32>(w12, 19) ^ (w12 >>> 10)) + w7 + (rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3)) + w14;
  t1 = b + (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + 0xbef9a3f7 + w14;
  f += t1;
  b = t1 + (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + (((x = c ^ d) & y) ^ d);
  w15 = (rotr<u32>(w13, 17) ^ rotr<u32>(w13, 19) ^ (w13 >>> 10)) + w8 + (rotr<u32>(w0, 7) ^ rotr<u32>(w0, 18) ^ (w0 >>> 3)) + w15;
  t1 = a + (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + 0xc67178f2 + w15;
  e += t1;
  a = t1 + (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + (((y = b ^ c) & x) ^ c);
    a += a0; b += b0; c += c0; d += d0; e += e0; f += f0; g += g0; h += h0;
  }
  store<u32>(s, a, 0);
  store<u32>(s, b, 4);
  store<u32>(s, c, 8);
  store<u32>(s, d, 12);
  store<u32>(s, e, 16);
  store<u32>(s, f, 20);
  store<u32>(s, g, 24);
  store<u32>(s, h, 28);
}

function update(s: usize, p: usize, len: usize): void {
  store<u64>(s + TOTAL_OFF, load<u64>(s + TOTAL_OFF) + <u64>len);
  let buffered = <usize>load<u32>(s + BUFLEN_OFF);
  if (buffered > 0) {
    const take = min<usize>(64 - buffered, len);
    memory.copy(s + BUF_OFF + buffered, p, take);
    buffered += take;
    p += take;
    len -= take;
    if (buffered < 64) {
      store<u32>(s + BUFLEN_OFF, <u32>buffered);
      return;
    }
    compress(s, s + BUF_OFF, 1);
    buffered = 0;
  }
  const full = len >> 6;
  if (full > 0) {
    compress(s, p, full);
    p += full << 6;
    len -= full << 6;
  }
  if (len > 0) memory.copy(s + BUF_OFF, p, len);
  store<u32>(s + BUFLEN_OFF, <u32>len);
}

/** Pads, compresses the last block(s) and writes the 32-byte big-endian digest to `out`. */
function finish(s: usize, out: usize): void {
  const buffered = <usize>load<u32>(s + BUFLEN_OFF);
  const bits = load<u64>(s + TOTAL_OFF) << 3;
  const buf = s + BUF_OFF;
  store<u8>(buf + buffered, 0x80);
  if (buffered >= 56) {
    memory.fill(buf + buffered + 1, 0, 63 - buffered);
    compress(s, buf, 1);
    memory.fill(buf, 0, 56);
  } else {
    memory.fill(buf + buffered + 1, 0, 55 - buffered);
  }
  store<u64>(buf + 56, bswap<u64>(bits));
  compress(s, buf, 1);
  digestTo(s, out);
}

/** Writes the big-endian digest of state `s` to `out`. */
function digestTo(s: usize, out: usize): void {
  for (let i: usize = 0; i < 8; i++) store<u32>(out + (i << 2), bswap<u32>(load<u32>(s + (i << 2))));
}

/** SHA-256 of `len` bytes at `ptr`; the 32-byte digest is left in the output window. */
export function sha256(ptr: usize, len: usize): void {
  reset(SCRATCH);
  update(SCRATCH, ptr, len);
  finish(SCRATCH, outReserve(32));
}

/**
 * SHA-256 of `count` consecutive slices of the input: `lengths` points at `count` u32 byte lengths
 * and the slices follow each other from `ptr`. Writes `count` digests (32 bytes each) to the output
 * window, so a whole project is hashed in one call.
 */
export function sha256Batch(ptr: usize, lengths: usize, count: u32): void {
  const out = outReserve(<usize>count << 5);
  if (ASC_FEATURE_SIMD) {
    if (count >= 2) {
      batchX4(ptr, lengths, <usize>count, out);
      return;
    }
  }
  let p = ptr;
  for (let i: usize = 0; i < <usize>count; i++) {
    const len = <usize>load<u32>(lengths + (i << 2));
    reset(SCRATCH);
    update(SCRATCH, p, len);
    finish(SCRATCH, out + (i << 5));
    p += len;
  }
}

// The multi-buffer batch: four lanes of compress4, each working through its own message. A lane
// record (16 bytes) holds the address of the lane's next block, the blocks it has left, how many
// of those are tail blocks, and the index of its input (IDLE when it has none). The tail is the
// message's last partial block plus padding and length (one or two blocks), built in the lane's
// 128-byte tail buffer when the message starts, so the data itself is read in place and never
// copied whole.
const LANES: usize = memory.data(64, 16);
const LANE_CUR: usize = 0;
const LANE_LEFT: usize = 4;
const LANE_TAIL_BLOCKS: usize = 8;
const LANE_INDEX: usize = 12;
const TAILS: usize = memory.data(512, 16);
const IDLE: u32 = 0xffffffff;

/** Starts message `index` (`len` bytes at `p`) in lane `i`. */
function laneStart(i: usize, index: usize, p: usize, len: usize): void {
  const tail = TAILS + (i << 7);
  const rem = len & 63;
  const full = len >> 6;
  memory.copy(tail, p + (full << 6), rem);
  store<u8>(tail + rem, 0x80);
  // The 64-bit length needs 8 bytes after the 0x80: one tail block below 56 bytes, else two.
  const tailBlocks: usize = rem < 56 ? 1 : 2;
  const end = tailBlocks << 6;
  memory.fill(tail + rem + 1, 0, end - 9 - rem);
  store<u64>(tail + end - 8, bswap<u64>(<u64>len << 3));
  const lane = LANES + (i << 4);
  store<u32>(lane + LANE_CUR, <u32>(full > 0 ? p : tail));
  store<u32>(lane + LANE_LEFT, <u32>(full + tailBlocks));
  store<u32>(lane + LANE_TAIL_BLOCKS, <u32>tailBlocks);
  store<u32>(lane + LANE_INDEX, <u32>index);
  const s = X4_STATE + (i << 2);
  store<u32>(s, 0x6a09e667, 0);
  store<u32>(s, 0xbb67ae85, 16);
  store<u32>(s, 0x3c6ef372, 32);
  store<u32>(s, 0xa54ff53a, 48);
  store<u32>(s, 0x510e527f, 64);
  store<u32>(s, 0x9b05688c, 80);
  store<u32>(s, 0x1f83d9ab, 96);
  store<u32>(s, 0x5be0cd19, 112);
}

/** Marks lane `i` idle; it keeps compressing a harmless block (its tail buffer) until the end. */
function laneIdle(i: usize): void {
  const lane = LANES + (i << 4);
  store<u32>(lane + LANE_CUR, <u32>(TAILS + (i << 7)));
  store<u32>(lane + LANE_INDEX, IDLE);
}

// Inputs by size class, 32 classes of 2^k blocks: how many fall in each, then where each class
// starts in the order.
const CLASS_COUNTS: usize = memory.data(128, 16);

// @ts-ignore: decorator
@inline
function sizeClass(len: usize): usize {
  return 32 - clz<u32>(<u32>(len >> 6));
}

/**
 * The order the lanes take the inputs in: (index, address) pairs, largest size class first, in input
 * order within a class. Starting the long messages early lets the short ones fill the lanes around
 * them, so the lanes run out of work at nearly the same time instead of one long message finishing
 * alone. A counting sort: two passes, no comparisons.
 */
function batchOrder(ptr: usize, lengths: usize, count: usize): usize {
  memory.fill(CLASS_COUNTS, 0, 128);
  for (let i: usize = 0; i < count; i++) {
    const c = CLASS_COUNTS + (sizeClass(<usize>load<u32>(lengths + (i << 2))) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  let start: u32 = 0;
  for (let k = 31; k >= 0; k--) {
    const c = CLASS_COUNTS + (<usize>k << 2);
    const n = load<u32>(c);
    store<u32>(c, start);
    start += n;
  }
  const order = heap.alloc(count << 3);
  let p = ptr;
  for (let i: usize = 0; i < count; i++) {
    const len = <usize>load<u32>(lengths + (i << 2));
    const c = CLASS_COUNTS + (sizeClass(len) << 2);
    const slot = <usize>load<u32>(c);
    store<u32>(c, <u32>slot + 1);
    store<u32>(order + (slot << 3), <u32>i);
    store<u32>(order + (slot << 3), <u32>p, 4);
    p += len;
  }
  return order;
}

/** Starts in lane `i` the input that the batch order's entry at `entry` names. */
function laneTake(i: usize, entry: usize, lengths: usize): void {
  const index = <usize>load<u32>(entry);
  laneStart(i, index, <usize>load<u32>(entry, 4), <usize>load<u32>(lengths + (index << 2)));
}

/** sha256Batch for two or more inputs: four messages at a time through compress4. */
function batchX4(ptr: usize, lengths: usize, count: usize, out: usize): void {
  const order = batchOrder(ptr, lengths, count);
  let next: usize = 0;
  let active = 0;
  for (let i: usize = 0; i < 4; i++) {
    if (next < count) {
      laneTake(i, order + (next++ << 3), lengths);
      active++;
    } else {
      laneIdle(i);
    }
  }
  // Four lanes in lockstep while at least two carry a message; a finished lane takes the next
  // input at once, so messages of very different sizes keep the lanes busy.
  while (active >= 2) {
    compress4(load<u32>(LANES, LANE_CUR), load<u32>(LANES, 16 + LANE_CUR), load<u32>(LANES, 32 + LANE_CUR), load<u32>(LANES, 48 + LANE_CUR));
    for (let i: usize = 0; i < 4; i++) {
      const lane = LANES + (i << 4);
      const index = load<u32>(lane + LANE_INDEX);
      if (index == IDLE) continue;
      const left = load<u32>(lane + LANE_LEFT) - 1;
      if (left > 0) {
        store<u32>(lane + LANE_LEFT, left);
        store<u32>(lane + LANE_CUR, left == load<u32>(lane + LANE_TAIL_BLOCKS) ? <u32>(TAILS + (i << 7)) : load<u32>(lane + LANE_CUR) + 64);
        continue;
      }
      laneDigest(i, out + (<usize>index << 5));
      if (next < count) {
        laneTake(i, order + (next++ << 3), lengths);
      } else {
        laneIdle(i);
        active--;
      }
    }
  }
  // At most one message is left (every input has been started): finish it on the scalar path,
  // which is faster than four lanes carrying one.
  for (let i: usize = 0; i < 4; i++) {
    const lane = LANES + (i << 4);
    const index = load<u32>(lane + LANE_INDEX);
    if (index == IDLE) continue;
    for (let j: usize = 0; j < 8; j++) store<u32>(SCRATCH + (j << 2), load<u32>(X4_STATE + (j << 4) + (i << 2)));
    const cur = <usize>load<u32>(lane + LANE_CUR);
    const left = <usize>load<u32>(lane + LANE_LEFT);
    const tailBlocks = <usize>load<u32>(lane + LANE_TAIL_BLOCKS);
    if (left > tailBlocks) {
      compress(SCRATCH, cur, left - tailBlocks);
      compress(SCRATCH, TAILS + (i << 7), tailBlocks);
    } else {
      compress(SCRATCH, cur, left);
    }
    digestTo(SCRATCH, out + (<usize>index << 5));
    laneIdle(i);
  }
  heap.free(order);
}

/** Writes lane `i`'s digest (big-endian h0..h7) to `out`. */
function laneDigest(i: usize, out: usize): void {
  const s = X4_STATE + (i << 2);
  for (let j: usize = 0; j < 8; j++) store<u32>(out + (j << 2), bswap<u32>(load<u32>(s + (j << 4))));
}

/** Starts a streaming hash; returns its handle (free it with sha256Final or sha256Drop). */
export function sha256Init(): usize {
  const s = heap.alloc(STATE_SIZE);
  reset(s);
  return s;
}

/** Feeds `len` bytes at `ptr` into the streaming hash `s`. */
export function sha256Update(s: usize, ptr: usize, len: usize): void {
  update(s, ptr, len);
}

/** Finishes the streaming hash `s`, writes its digest to the output window, and frees it. */
export function sha256Final(s: usize): void {
  finish(s, outReserve(32));
  heap.free(s);
}

/** Frees a streaming hash without finishing it. */
export function sha256Drop(s: usize): void {
  heap.free(s);
}
