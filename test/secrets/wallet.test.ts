// Crypto wallets' secrets: a recovery phrase (rule wallet-recovery-phrase), what the host counts as
// one (recoveryPhraseEnd) and that a phrase found is redacted whole in every form it is written;
// Ethereum private keys, every key of a Hardhat accounts list (listedKeys), and the development
// keys everyone publishes.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { listedKeys, recoveryPhraseEnd } from '../../src/secrets/wallet.ts';
import { redactSecrets } from '../../src/secrets/redact.ts';
import { scanSecrets } from '../../src/secrets/scan.ts';

beforeAll(async () => {
  await initCore();
});

/** Made-up words of BIP-39's lengths (none of them a real phrase's). */
const WORDS = ['glove', 'ribbon', 'sponsor', 'ozone', 'ticket', 'velvet', 'magnet', 'orbit', 'canyon', 'fiscal', 'drama', 'habit', 'lunar', 'pepper', 'quarry', 'salmon', 'tundra', 'walnut', 'zephyr', 'bridge', 'cobalt', 'dinner', 'ember', 'fossil'];
const words = (n: number) => WORDS.slice(0, n).join(' ');

/** recoveryPhraseEnd over `MNEMONIC="<value>"`: the words' end relative to the value, or undefined. */
const judge = (value: string, after = '"') => {
  const text = `MNEMONIC="${value}${after}`;
  const start = 10;
  const end = recoveryPhraseEnd(text, start, start + value.length);
  return end === undefined ? undefined : end - start;
};

describe('recoveryPhraseEnd', () => {
  it('takes 12, 15, 18, 21 and 24 words, and no other count', () => {
    for (const n of [12, 15, 18, 21, 24]) expect(judge(words(n))).toBe(words(n).length);
    for (const n of [11, 13, 14, 16, 20, 23]) expect(judge(words(n))).toBeUndefined();
  });

  it('takes words of 3 to 8 letters, single-spaced', () => {
    expect(judge(words(11) + ' cat')).toBe(words(11).length + 4);
    expect(judge(words(11) + ' carriage')).toBe(words(11).length + 9);
    expect(judge(words(11) + ' to')).toBeUndefined();
    expect(judge(words(11) + ' carriages')).toBeUndefined();
    expect(judge(words(11).replace(' ', '  ') + ' cat')).toBeUndefined();
  });

  it('leaves trailing blanks out of the phrase', () => {
    const text = `mnemonic: ${words(12)}   \nnext: 1`;
    expect(recoveryPhraseEnd(text, 10, 10 + words(12).length + 3)).toBe(10 + words(12).length);
  });

  it('needs the words to be the whole value', () => {
    for (const after of ['"', "'", '`', '\n', '\r\n', ',', ';', ')', '}', '#']) expect(judge(words(12), after)).toBe(words(12).length);
    for (const after of ['2', 'X', '-', '.', '_', '/']) expect(judge(words(12), after)).toBeUndefined();
    const text = `mnemonic=${words(12)}`;
    expect(recoveryPhraseEnd(text, 9, text.length)).toBe(text.length);
  });

  it('drops phrases whose words repeat more than a random one does', () => {
    const three = [...WORDS.slice(0, 9), 'glove', 'ribbon', 'sponsor'].join(' ');
    const four = [...WORDS.slice(0, 8), 'glove', 'ribbon', 'sponsor', 'ozone'].join(' ');
    expect(judge(three)).toBe(three.length);
    expect(judge(four)).toBeUndefined();
  });

  it('drops a list of three-letter names (more than a third of the words)', () => {
    const names = 'add sub mul div and orr eor lsl lsr asr ror cmp';
    expect(judge(names)).toBeUndefined();
    const four = `${WORDS.slice(0, 8).join(' ')} cat dog owl elk`;
    const five = `${WORDS.slice(0, 7).join(' ')} cat dog owl elk yak`;
    expect(judge(four)).toBe(four.length);
    expect(judge(five)).toBeUndefined();
  });

  it('ends a phrase at a tab too (a comment after it)', () => {
    const text = `MNEMONIC=${words(12)}\t# dev wallet\n`;
    // The core's run of letters and blanks stops at the tab.
    expect(recoveryPhraseEnd(text, 9, 9 + words(12).length)).toBe(9 + words(12).length);
  });

  it('drops the published test phrases', () => {
    for (const p of [
      'myth like bonus scare over problem client lizard pioneer submit female collect',
      'candy maple cake sugar pudding cream honey rich smooth crumble sweet treat',
      'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
      'test test test test test test test test test test test junk',
    ]) {
      expect(judge(p)).toBeUndefined();
      expect(scanSecrets(`MNEMONIC="${p}"`)).toEqual([]);
    }
  });
});

describe('a recovery phrase is redacted whole', () => {
  const FORMS: ((p: string) => string)[] = [
    (p) => `MNEMONIC="${p}"\r\n`,
    (p) => `DEPLOYER_MNEMONIC=${p}\n`,
    (p) => `  accounts: { mnemonic: '${p}' },`,
    (p) => `seed_phrase: ${p} # dev wallet\n`,
    (p) => `const wallet = Wallet.fromPhrase(\`${p}\`);`,
    (p) => `{"mnemonic":"${p}","path":"m/44'/60'/0'/0/0"}`,
  ];

  it('finds it with its rule, medium confidence, at the words exactly', () => {
    const text = `# wallet\nMNEMONIC="${words(24)}"\n`;
    expect(scanSecrets(text)).toEqual([{ ruleId: 'wallet-recovery-phrase', confidence: 'medium', start: 19, end: 19 + words(24).length, line: 2, column: 11 }]);
    expect(redactSecrets(text).text).toBe('# wallet\nMNEMONIC="[REDACTED:wallet-recovery-phrase:1]"\n');
  });

  it('is not taken for a placeholder for holding words that are placeholder fragments elsewhere', () => {
    // BIP-39's list has `example`, `sample`, `test`, `dummy` and `fake`.
    const p = `${words(7)} example sample test dummy fake`;
    expect(scanSecrets(`mnemonic: "${p}"`).map((f) => f.ruleId)).toEqual(['wallet-recovery-phrase']);
  });

  it('leaves no word of a random phrase in any form (property)', () => {
    // Four to eight letters: a phrase of many three-letter words is a table of names (see the test above).
    const word = fc.stringMatching(/^[a-z]{4,8}$/);
    const phrase = fc
      .integer({ min: 0, max: 4 })
      .chain((k) => fc.uniqueArray(word, { minLength: 12 + 3 * k, maxLength: 12 + 3 * k }))
      .map((ws) => ws.join(' '))
      // A phrase of random letters: its entropy is an English phrase's or more, above the rule's threshold.
      .filter((p) => entropy(p) >= 3.3);
    fc.assert(
      fc.property(phrase, fc.integer({ min: 0, max: FORMS.length - 1 }), (p, form) => {
        const text = FORMS[form]!(p);
        const out = redactSecrets(text);
        expect(out.text).not.toContain(p.slice(0, 8));
        expect(out.redactions.map((r) => r.ruleId)).toEqual(['wallet-recovery-phrase']);
        expect(out.text).toBe(text.replace(p, '[REDACTED:wallet-recovery-phrase:1]'));
      }),
      { numRuns: 200 },
    );
  });
});

/** A made-up private key: 64 hex digits from a seed (xorshift), never a real account's. */
function key(seed: number): string {
  let x = seed >>> 0 || 1;
  let s = '';
  for (let i = 0; i < 64; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    s += '0123456789abcdef'[(x >>> 0) % 16];
  }
  return `0x${s}`;
}

describe('Ethereum private keys', () => {
  it('finds every key of an accounts list, each at its own line and column', () => {
    const [a, b, c] = [key(1), key(2), key(3)];
    const text = `module.exports = {\n  networks: {\n    sepolia: {\n      accounts: [\n        "${a}",\n        '${b}', "${c}"\n      ],\n    },\n  },\n};\n`;
    const at = (k: string) => text.indexOf(k);
    expect(scanSecrets(text)).toEqual([
      { ruleId: 'ethereum-private-key-accounts', confidence: 'medium', start: at(a), end: at(a) + 66, line: 5, column: 10 },
      { ruleId: 'ethereum-private-key-accounts', confidence: 'medium', start: at(b), end: at(b) + 66, line: 6, column: 10 },
      { ruleId: 'ethereum-private-key-accounts', confidence: 'medium', start: at(c), end: at(c) + 66, line: 6, column: 80 },
    ]);
    const out = redactSecrets(text).text;
    for (const k of [a, b, c]) expect(out).not.toContain(k.slice(2, 18));
  });

  it('reads a list on past comments between its keys', () => {
    const [a, b, c, d] = [key(8), key(9), key(10), key(11)];
    const text = `accounts: [\n  "${a}", // deployer\n  /* ops */ "${b}",\n  // "0xretired",\n  "${c}" /* last */ , '${d}'\n]`;
    expect(scanSecrets(text).map((f) => text.slice(f.start, f.end))).toEqual([a, b, c, d]);
    // A comment left open ends the list.
    expect(listedKeys(`["${a}", /* "${b}"]`, 68)).toEqual([]);
  });

  it('reads a list on until it holds something other than a quoted key', () => {
    const [a, b, c] = [key(4), key(5), key(6)];
    const text = `["${a}", '${b}', process.env.KEY, "${c}"]`;
    const first = text.indexOf(a) + 66;
    expect(listedKeys(text, first)).toEqual([{ start: text.indexOf(b), end: text.indexOf(b) + 66 }]);
    // A 65th digit, a 63-digit value, an address and a missing comma end it too.
    for (const next of [`"${b}f"`, `"${b.slice(0, -1)}"`, `"${b.slice(0, 42)}"`]) expect(listedKeys(`["${a}", ${next}]`, 68)).toEqual([]);
    expect(listedKeys(`["${a}" "${b}"]`, 68)).toEqual([]);
  });

  it('reads at most 64 keys after the first', () => {
    const keys = Array.from({ length: 70 }, (_, i) => `"${key(100 + i)}"`);
    const text = `accounts: [${keys.join(', ')}]`;
    // The first key runs from 12 (after `accounts: ["`) to 78.
    expect(listedKeys(text, 78)).toHaveLength(64);
    expect(listedKeys(text, 78)[63]).toEqual({ start: text.indexOf(keys[64]!) + 1, end: text.indexOf(keys[64]!) + 67 });
  });

  it('does not report the development keys Hardhat and Anvil publish, with or without 0x', () => {
    const anvil0 = 'ac0974bec39a17e36ba4a6b4d238ff94' + '4bacb478cbed5efcae784d7bf4f2ff80';
    const anvil3 = '7c852118294e51e653712a81e05800f4' + '19141751be58f605c371e15141b007a6';
    for (const text of [
      `PRIVATE_KEY=0x${anvil0}`,
      `PRIVATE_KEY=${anvil0}`,
      `const signer = new ethers.Wallet("0x${anvil0}", provider);`,
      `forge script Deploy --private-key 0x${anvil3} --broadcast`,
      `accounts: ["0x${anvil0}", "0x${anvil3}"]`,
    ]) {
      expect(scanSecrets(text)).toEqual([]);
    }
    // A key that is not one of them, in the same places, is.
    expect(scanSecrets(`accounts: ["0x${anvil0}", "${key(7)}"]`).map((f) => f.ruleId)).toEqual(['ethereum-private-key-accounts']);
  });
});

/** Shannon entropy in bits per character, as the core computes it over the value's bytes. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}
