/**
 * The host's judgements of crypto wallets' secrets: whether a run of lowercase letters and blanks
 * that the core found under a mnemonic or seed-phrase name is a BIP-39 recovery phrase's words, and
 * not a published test phrase (rule `wallet-recovery-phrase`); and the keys after the first in a
 * Hardhat network's `accounts` list (rule `ethereum-private-key-accounts`), which the core's one
 * match per keyword does not reach.
 */

/** The word counts BIP-39 allows: 128 to 256 bits of entropy, 32 bits per 3 words. */
const PHRASE_WORDS = new Set([12, 15, 18, 21, 24]);

/**
 * Phrases published for tests, which unlock no one's funds: Ganache's deterministic one, Truffle's
 * development one, and BIP-39 test vectors whose words repeat too little for the distinct-words
 * check to drop it. (Hardhat's and Foundry's `test … junk` and the all-`abandon` and all-`zoo`
 * vectors repeat a word eleven times or more.)
 */
const PUBLIC_PHRASES = new Set([
  ['myth', 'like', 'bonus', 'scare', 'over', 'problem', 'client', 'lizard', 'pioneer', 'submit', 'female', 'collect'],
  ['candy', 'maple', 'cake', 'sugar', 'pudding', 'cream', 'honey', 'rich', 'smooth', 'crumble', 'sweet', 'treat'],
  ['legal', 'winner', 'thank', 'year', 'wave', 'sausage', 'worth', 'useful', 'legal', 'winner', 'thank', 'yellow'],
  ['letter', 'advice', 'cage', 'absurd', 'amount', 'doctor', 'acoustic', 'avoid', 'letter', 'advice', 'cage', 'above'],
].map((words) => words.join(' ')));

/**
 * What may follow a phrase that is a whole value: the text's or line's end, its closing quote, or
 * what ends a value in code and configuration (`,` `;` `)` `}` and a comment's `#`). A digit, a
 * capital or any other byte there means the run was a longer value's beginning.
 */
const PHRASE_ENDS = new Set([...'\t\r\n"\'`,;)}#'].map((c) => c.charCodeAt(0)));

/**
 * For a recovery-phrase match at [start, end): the end of its words (trailing blanks left out)
 * when they are 12, 15, 18, 21 or 24 words of 3 to 8 letters, single-spaced, mostly distinct, the
 * whole of their value, and no published test phrase; otherwise undefined.
 */
export function recoveryPhraseEnd(text: string, start: number, end: number): number | undefined {
  if (end < text.length && !PHRASE_ENDS.has(text.charCodeAt(end))) return undefined;
  let e = end;
  while (e > start && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
  const value = text.slice(start, e);
  const words = value.split(' ');
  if (!PHRASE_WORDS.has(words.length)) return undefined;
  // Three to eight letters each: a double blank leaves an empty word, prose its `a`, `of`, `to`.
  if (!words.every((w) => w.length >= 3 && w.length <= 8)) return undefined;
  // A random phrase repeats a word now and then (one time in eight over 24 words); a made-up one
  // (`word word word …`, a vector's repeated half) repeats many.
  if (new Set(words).size < words.length - 3) return undefined;
  // BIP-39's list has few words of three letters (about one in thirty): a table of three-letter
  // names (an assembler's `add sub mul …`) is no phrase.
  if (words.filter((w) => w.length === 3).length * 3 > words.length) return undefined;
  if (PUBLIC_PHRASES.has(value)) return undefined;
  return e;
}

/** At most this many keys are read after a list's first: no network has more accounts in its config. */
const MAX_LISTED_KEYS = 64;

/** `0x` and a private key's 64 hex digits. */
const KEY_LENGTH = 66;

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** True when `text` holds `0x` and exactly 64 hex digits at `i` (no 65th). */
function isKeyAt(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 0x30 || (text.charCodeAt(i + 1) | 0x20) !== 0x78) return false;
  for (let k = i + 2; k < i + KEY_LENGTH; k++) if (!isHexDigit(text.charCodeAt(k))) return false;
  return !isHexDigit(text.charCodeAt(i + KEY_LENGTH));
}

/**
 * The spans of the keys that follow a list's first key (which ends at `end`): each one quoted,
 * after a comma and any blanks or line breaks, until the list ends or holds anything else (a
 * variable, a key read from the environment). The keys are given in order; none is judged here.
 */
export function listedKeys(text: string, end: number): { start: number; end: number }[] {
  const keys: { start: number; end: number }[] = [];
  let i = end;
  while (keys.length < MAX_LISTED_KEYS) {
    if (!isQuote(text.charCodeAt(i))) break;
    i = afterGap(text, i + 1);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = afterGap(text, i + 1);
    if (!isQuote(text.charCodeAt(i)) || !isKeyAt(text, i + 1)) break;
    keys.push({ start: i + 1, end: i + 1 + KEY_LENGTH });
    i += 1 + KEY_LENGTH;
  }
  return keys;
}

function isQuote(c: number): boolean {
  return c === 0x22 || c === 0x27 || c === 0x60;
}

function isListGap(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The position after blanks, line breaks and comments (`// deployer` to the line's end, `/* … *\/`)
 * from `i`: lists of keys name them in comments, and a comment must not hide the keys after it.
 */
function afterGap(text: string, i: number): number {
  for (;;) {
    while (isListGap(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 0x2f) return i;
    const next = text.charCodeAt(i + 1);
    if (next === 0x2f) {
      const eol = text.indexOf('\n', i + 2);
      if (eol < 0) return text.length;
      i = eol + 1;
    } else if (next === 0x2a) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return text.length;
      i = close + 2;
    } else return i;
  }
}
