// Helpers for writing secret rules as data. A rule is a plain object; its byte pattern is a list
// of steps that build/gen-rules.mjs compiles into the core's tables:
//   ['class', min, max?]          a greedy run of bytes from a named class (no backtracking);
//                                  of class `strprefix`, taken only when a quote follows it
//   'literal'                      exact bytes
//   { lit: 'bearer', ci: true }    ASCII case-insensitive bytes
//   { until: '-----END', min, max } any bytes up to the first occurrence of a literal (bounded)
// The keyword (found by the prefilter) is where the match starts; `back` extends it leftwards.
// `host` names how the host judges a match beyond the placeholder check (src/secrets/scan.ts):
//   'assignment'   a generic `name = value`: references, stop values, code, the name's words
//   'argument'     a value after a quoted name, only as a call's argument
//   'positional'   an assignment whose value is an argument by position: no name is read
//   'password'     a password on its own (URL, connection string): stop values and references
//   'structural'   a key block: no placeholder fragments, but a long base64 run
//   'basic'        base64 of user:password, which must decode to one
//   'keyMaterial'  generated key material, judged by isKeyStandIn instead of the fragments
//   'jwk'          a JSON Web Key's member, with a `kty` member near
//   'declared'     the value's name is the nearest one on its line that holds a keyword: past a
//                  declaration's type (`apiKey: string = "…"`), before an environment read's
//                  fallback (`process.env.API_KEY || "…"`)
//   'pairs'        one of a connection string's `;`-separated pairs: with no `;` before it on its
//                  line or right after the value, it ranks after every other built-in rule, so a
//                  lone `export PASSWORD=…` is named by the generic rule that found it too
//   'generated'    a value whose name holds no kind word (`STRIPE_KEY`): it must look generated,
//                  and the name must not be a public or lookup key's (isGeneratedKey)
//   'userinfo'     a match at a Go DSN's protocol: the host reads `user:password` back from it
//                  and takes the password, after the user's first `:` (userinfoPassword)
//   'phrase'       a wallet's recovery phrase: 12 to 24 words the host counts (recoveryPhraseEnd)
//   'keyList'      the first key of a list: the host reads the keys after it too (listedKeys)
//   'label'        a Terraform variable's default: its name is the label of the `variable "…"`
//                  block that holds it (variableLabel), which must hold one of `nameKeywords`
//   'command'      a flag's value found by searching on from the command (the keyword): the
//                  value's command line (lines joined by a trailing `\`, `^` or backtick) must name
//                  the command (onCommandLine), so `az login` on one line and `mkdir -p` on the
//                  next are not read as one; a rule keyed on its subcommand (`add_user `) names
//                  the commands in `commands` instead (`['rabbitmqctl']`)
//   'encodedPair'  a password after `user:` in a string literal being encoded (btoa('user:…')): no
//                  URN, digest, Relay id or colon list (isEncodedPair), and the password runs to
//                  the string's closing quote, past backslash-escaped ones (stringLiteralEnd)
//   'headerProse'  an Authorization header's value: one that reads as words and does not decode
//                  to `user:password` (`Basic authentication`, `Basic Base64EncodedCredentials`,
//                  `ApiKey YourApiKeyGoesHere`), or decodes to a pair with a default or stand-in
//                  password and a user without digits (`user:password`), is documentation about
//                  the header (isHeaderProse)
// `nameKeywords`, for an 'assignment' rule keyed on a statement (`ENV `, `#define `) rather than on
// the name: the value's name must hold one of these words (lowercase; a word ending in `$` must end
// the name, and one written `^word$` must be the whole name).
//
// Fixture values are made here, at run time, by a seeded generator, so this repository contains no
// string that looks like a live credential: every test value is `prefix + F(charset, length)`.

/** Character sets for fixture values. */
export const C = {
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  upnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  lownum: 'abcdefghijklmnopqrstuvwxyz0123456789',
  hex: '0123456789abcdef',
  HEX: '0123456789ABCDEF',
  digit: '0123456789',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  b64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  bech32: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
  // wp_generate_password(64, true, true): WordPress keys and salts.
  wp: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_ []{}<>~`+=,.;:/?|',
};

let counter = 0x9e3779b9;

/** A deterministic pseudo-random string from `charset` (fixtures only; never a real key). */
export function F(charset, length) {
  // mulberry32, reseeded per call from a module-wide counter: stable across runs and runtimes.
  counter = (Math.imul(counter ^ (counter >>> 16), 0x45d9f3b) + 0x9e3779b9) >>> 0;
  let a = counter;
  let out = '';
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out += charset[Math.floor(r * charset.length)];
  }
  return out;
}

/**
 * A fixture value from `charset` whose Shannon entropy reaches `bits` (F's next draws until one
 * does): a random 32-character hex string falls under a generic rule's threshold about one time in
 * twenty, and such a draw would test the threshold rather than the form the example is about.
 */
export function above(charset, length, bits) {
  for (;;) {
    const v = F(charset, length);
    const counts = new Map();
    for (const ch of v) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    let h = 0;
    for (const c of counts.values()) h -= (c / length) * Math.log2(c / length);
    if (h >= bits) return v;
  }
}

/** A UUID-shaped fixture value. */
export function uuid() {
  return `${F(C.hex, 8)}-${F(C.hex, 4)}-4${F(C.hex, 3)}-a${F(C.hex, 3)}-${F(C.hex, 12)}`;
}

/** A positive example: `before + secret + after`; the test expects exactly `secret` flagged. */
export function P(before, secret, after = '') {
  return { text: before + secret + after, secret };
}

/** Steps of a `name <sep> value` assignment in .env, YAML, JSON, TOML, shell or source code. */
export function assign(value) {
  return [['ident', 0, 24], ['qsp', 0, 4], ['assign', 1, 2], ['qsp', 0, 4], value];
}

/**
 * A token that starts with a literal prefix: the whole token is the secret.
 * `body` is the steps after the prefix.
 */
export function prefixed(id, description, prefixes, body, examples, extra = {}) {
  return {
    id,
    description,
    confidence: 'high',
    keywords: Array.isArray(prefixes) ? prefixes : [prefixes],
    steps: body,
    ...extra,
    examples,
  };
}

/** A value recognised only by the name it is assigned to: the value is the secret. */
export function contextual(id, description, keywords, value, examples, extra = {}) {
  return {
    id,
    description,
    confidence: 'high',
    keywords,
    ci: true,
    before: null,
    steps: assign(value),
    secret: 'last',
    ...extra,
    examples,
  };
}
