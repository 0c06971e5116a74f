/**
 * The host's judgement of a wallet recovery phrase (rule `wallet-recovery-phrase`): the core found
 * a run of lowercase letters and blanks under a mnemonic or seed-phrase name; this decides whether
 * it is a BIP-39 phrase's words, and not one of the published test phrases.
 */

/** The word counts BIP-39 allows: 128 to 256 bits of entropy, 32 bits per 3 words. */
const PHRASE_WORDS = new Set([12, 15, 18, 21, 24]);

/**
 * Phrases published for tests, which unlock no one's funds: Ganache's deterministic one, Truffle's
 * development one, and a BIP-39 test vector whose words repeat too little for the distinct-words
 * check to drop it. (Hardhat's and Foundry's `test … junk` and the all-`abandon` and all-`zoo`
 * vectors repeat a word eleven times or more.)
 */
const PUBLIC_PHRASES = new Set([
  ['myth', 'like', 'bonus', 'scare', 'over', 'problem', 'client', 'lizard', 'pioneer', 'submit', 'female', 'collect'],
  ['candy', 'maple', 'cake', 'sugar', 'pudding', 'cream', 'honey', 'rich', 'smooth', 'crumble', 'sweet', 'treat'],
  ['letter', 'advice', 'cage', 'absurd', 'amount', 'doctor', 'acoustic', 'avoid', 'letter', 'advice', 'cage', 'above'],
].map((words) => words.join(' ')));

/**
 * What may follow a phrase that is a whole value: the text's or line's end, its closing quote, or
 * what ends a value in code and configuration (`,` `;` `)` `}` and a comment's `#`). A digit, a
 * capital or any other byte there means the run was a longer value's beginning.
 */
const PHRASE_ENDS = new Set([...'\r\n"\'`,;)}#'].map((c) => c.charCodeAt(0)));

/**
 * For a recovery-phrase match at [start, end): the end of its words (trailing blanks left out)
 * when they are 12, 15, 18, 21 or 24 words of 3 to 8 letters, single-spaced, mostly distinct, the
 * whole of their value, and no published test phrase; otherwise undefined.
 */
export function recoveryPhraseEnd(text: string, start: number, end: number): number | undefined {
  if (end < text.length && !PHRASE_ENDS.has(text.charCodeAt(end))) return undefined;
  let e = end;
  while (e > start && text.charCodeAt(e - 1) === 0x20) e--;
  const value = text.slice(start, e);
  const words = value.split(' ');
  if (!PHRASE_WORDS.has(words.length)) return undefined;
  // Three to eight letters each: a double blank leaves an empty word, prose its `a`, `of`, `to`.
  if (!words.every((w) => w.length >= 3 && w.length <= 8)) return undefined;
  // A random phrase repeats a word now and then (one time in eight over 24 words); a made-up one
  // (`word word word …`, a vector's repeated half) repeats many.
  if (new Set(words).size < words.length - 3) return undefined;
  if (PUBLIC_PHRASES.has(value)) return undefined;
  return e;
}
