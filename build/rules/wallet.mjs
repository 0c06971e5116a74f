// A crypto wallet's recovery phrase: the 12 to 24 words (BIP-39) that rebuild every key of the
// wallet. Web3 projects keep them in `.env` (`MNEMONIC="…"`), in Hardhat and Truffle configs
// (`accounts: { mnemonic: "…" }`) and in scripts (`Wallet.fromPhrase("…")`, viem's
// `mnemonicToAccount("…")`), and one leaked is every fund of the wallet gone. Last in priority,
// and last in the fixtures' draws (a file of its own, imported after the others): its examples
// shift no other rule's values.
import { F, P } from './dsl.mjs';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A fixture phrase of `n` made-up lowercase words of 3 to 8 letters (BIP-39's English words have
 * that many): the shape of a recovery phrase, and no real wallet's.
 */
const phrase = (n) => Array.from({ length: n }, (_, i) => F(LOWER, 3 + ((i * 5) % 6))).join(' ');

export default [
  {
    id: 'wallet-recovery-phrase',
    description: 'Crypto wallet recovery phrase (BIP-39 mnemonic of 12 to 24 words) under a mnemonic or seed-phrase name, or given to a call that restores a wallet from one',
    confidence: 'medium',
    // `phrase` ends SEED_PHRASE, recoveryPhrase and ethers 6's `Wallet.fromPhrase("…")`, and is
    // Truffle's `mnemonic: { phrase: "…" }`; `fromMnemonic`, `from_mnemonic` and viem's
    // `mnemonicToAccount` hold `mnemonic`. Truffle's provider also takes the phrase first.
    keywords: ['mnemonic', 'phrase', 'hdwalletprovider'],
    ci: true,
    before: null,
    // The rest of the name, then an assignment or a call's parenthesis, then the words: lowercase
    // letters and blanks only, from 12 words of 3 letters to 24 of 8 (the host counts them).
    steps: [['ident', 0, 24], ['qsp', 0, 4], ['assignop', 0, 2], ['assigncall', 1, 2], ['sp', 0, 4], ['quote', 0, 1], ['phrase', 47, 240]],
    secret: 'last',
    after: 'phrase',
    // The repeated words of the public test phrases (`test test … junk`) fall under it; a real
    // phrase's letters are spread like English words' (about 4 bits each).
    entropy: 3.3,
    host: ['phrase'],
    examples: {
      pos: [
        P('MNEMONIC="', phrase(12), '"'),
        P('WALLET_MNEMONIC=', phrase(24), '\n'),
        P('SEED_PHRASE=\'', phrase(12), "'"),
        P('    accounts: { mnemonic: "', phrase(12), '" },'),
        P('const wallet = ethers.Wallet.fromPhrase("', phrase(12), '");'),
        P("const account = mnemonicToAccount('", phrase(15), "')"),
        P('acct = Account.from_mnemonic("', phrase(18), '")'),
        P('mnemonic: ', phrase(12), '\n'),
        P('      provider: () => new HDWalletProvider({ mnemonic: { phrase: "', phrase(12), '" }, providerOrUrl: rpcUrl }),'),
        P('      provider: () => new HDWalletProvider("', phrase(12), '", `https://sepolia.infura.io/v3/${projectId}`),'),
      ],
      neg: [
        // Hardhat's and Foundry's public test phrase, and Ganache's deterministic one.
        'MNEMONIC="test test test test test test test test test test test junk"',
        'mnemonic: "myth like bonus scare over problem client lizard pioneer submit female collect"',
        'MNEMONIC="candy maple cake sugar pudding cream honey rich smooth crumble sweet treat"',
        // A reference, a placeholder, prose, and words that are not a phrase's count.
        'MNEMONIC=${MNEMONIC}',
        'MNEMONIC="your twelve word mnemonic phrase goes here"',
        'The mnemonic: write these words down and keep them somewhere safe and offline forever, then delete this file.',
        'mnemonic = "' + phrase(13) + '"',
        'const wallet = ethers.Wallet.fromPhrase(process.env.MNEMONIC);',
        'new HDWalletProvider(mnemonic, rpcUrl)',
        'The phrase: "' + phrase(11) + '"',
      ],
    },
  },
];
