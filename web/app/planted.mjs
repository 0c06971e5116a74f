// The sample project's planted FAKE secrets, assembled from pieces at load time so the repository
// never contains a live-looking key. Plain JavaScript so the browser tests (Node) can compute the
// same values and assert they never reach the page's DOM.

/** Deterministic pseudo-random characters (xorshift32): the same fake key on every load. */
export function fakeChars(alphabet, n, seed) {
  let x = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Shaped like an Anthropic key so the high-confidence rule fires; random and worthless. */
export function plantedSecret() {
  return ['sk', 'ant', 'api03'].join('-') + '-' + fakeChars(B64URL, 93, 0x5eed) + 'AA';
}

/** The fake database password in the sample's `.env` (never sent: deny rule). */
export function plantedDbPassword() {
  return fakeChars('abcdefghijkmnopqrstuvwxyz23456789', 20, 0xdb);
}
