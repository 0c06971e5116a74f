// Crypto wallets' secrets: an Ethereum account's private key where only a private key goes, and a
// wallet's recovery phrase, the 12 to 24 words (BIP-39) that rebuild every key of the wallet. Web3 projects keep them in `.env` (`MNEMONIC="…"`), in Hardhat and Truffle configs
// (`accounts: { mnemonic: "…" }`) and in scripts (`Wallet.fromPhrase("…")`, viem's
// `mnemonicToAccount("…")`), and one leaked is every fund of the wallet gone. Last in priority,
// and last in the fixtures' draws (a file of its own, imported after the others): its examples
// shift no other rule's values.
import { C, F, P } from './dsl.mjs';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A fixture phrase of `n` made-up lowercase words of 3 to 8 letters (BIP-39's English words have
 * that many): the shape of a recovery phrase, and no real wallet's.
 */
const phrase = (n) => Array.from({ length: n }, (_, i) => F(LOWER, 3 + ((i * 5) % 6))).join(' ');

/** The private key of an Ethereum account: 32 bytes as 64 hex digits (either case) after `0x`. */
const privateKey = () => F(C.hex, 64);

export default [
  {
    id: 'ethereum-private-key',
    description: "Ethereum account private key given where only a private key goes: ethers' new Wallet(\"0x…\"), viem's privateKeyToAccount(\"0x…\"), Foundry's --private-key 0x…",
    confidence: 'high',
    // `keytoaccount(`, not `privatekeytoaccount(`: `priv` begins `private` all over TypeScript.
    // `Wallet(` as ethers' class, after `new ` or `ethers.`: not the end of another function's
    // name (`checkWallet("0x…")` takes an address or anything else).
    keywords: [' wallet(', '.wallet(', 'keytoaccount(', '--private-key'],
    ci: true,
    before: null,
    // A blank or line break (an argument on the next line), or a flag's `=`; the key must have
    // its `0x`: 64 hex digits alone are any SHA-256.
    steps: [['keysep', 0, 8], ['quote', 0, 1], '0x', ['hexi', 64, 64]],
    secret: [2, 3],
    // A 65th hex digit: a longer value, not a key.
    after: 'hexi',
    entropy: 3,
    examples: {
      pos: [
        P('const signer = new ethers.Wallet("', '0x' + privateKey(), '", provider);'),
        P("const wallet = new Wallet(\n  '", '0x' + privateKey(), "',\n  provider,\n);"),
        P('const signer = new ethers.Wallet("', '0x' + privateKey().toUpperCase(), '", provider);'),
        P('const account = privateKeyToAccount(`', '0x' + privateKey(), '`)'),
        P('forge script script/Deploy.s.sol --rpc-url $RPC_URL --private-key ', '0x' + privateKey(), ' --broadcast'),
        P('cast send $TOKEN "transfer(address,uint256)" $TO 1 --private-key=', '0x' + privateKey()),
      ],
      neg: [
        'const wallet = new ethers.Wallet(process.env.PRIVATE_KEY, provider);',
        'forge script Deploy --private-key $PRIVATE_KEY --broadcast',
        // An address (20 bytes) and a transaction hash longer than a key.
        'const wallet = new Wallet("0x' + F(C.hex, 40) + '")',
        'privateKeyToAccount("0x' + F(C.hex, 64) + F(C.hex, 2) + '")',
        // Hardhat's and Anvil's first development account, derived from the public `test … junk` phrase.
        'const signer = new ethers.Wallet("0x' + 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", provider);',
        'new Wallet("0x0000000000000000000000000000000000000000000000000000000000000001")',
        'const owner = await checkWallet("0x' + F(C.hex, 64) + '");',
      ],
    },
  },
  {
    id: 'ethereum-private-key-accounts',
    description: "Ethereum private key in a Hardhat network's accounts list (accounts: [\"0x…\", …])",
    // An `accounts` list of 32-byte values is a Hardhat network's keys; on other chains (Sui,
    // Aptos) an address has 32 bytes too, so the name alone says less than a call does.
    confidence: 'medium',
    keywords: ['accounts'],
    ci: true,
    before: null,
    // `accounts:` as Hardhat's configs and JSON write it; `const accounts = ["0x…"]` in code is
    // as often a list of 32-byte addresses or leaves.
    steps: [['qsp', 0, 4], ':', ['ws', 0, 8], '[', ['ws', 0, 16], ['quote', 1, 1], '0x', ['hexi', 64, 64]],
    secret: [6, 7],
    after: 'hexi',
    entropy: 3,
    // Every key of the list, not only the first (keyList).
    host: ['keyList'],
    examples: {
      pos: [
        P('    sepolia: {\n      url: SEPOLIA_RPC_URL,\n      accounts: ["', '0x' + privateKey(), '"],\n    },'),
        P("  accounts: [\n    '", '0x' + privateKey(), "',\n  ],"),
        P('{"networks": {"goerli": {"accounts": ["', '0x' + privateKey(), '"]}}}'),
      ],
      neg: [
        'accounts: [process.env.PRIVATE_KEY]',
        'accounts: [`0x${process.env.PRIVATE_KEY}`]',
        'accounts: PRIVATE_KEY !== undefined ? [PRIVATE_KEY] : [],',
        '"accounts": ["0x' + F(C.hex, 40) + '"]',
        "accounts: ['0x" + 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' + "']",
        "accounts: ['0x" + 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'.toUpperCase() + "']",
        'const accounts = ["0x' + F(C.hex, 64) + '"]; // merkle leaves',
      ],
    },
  },
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
    // Blanks or a line break after it: a formatter puts a long argument on a line of its own.
    steps: [['ident', 0, 24], ['qsp', 0, 4], ['assignop', 0, 2], ['assigncall', 1, 2], ['ws', 0, 8], ['quote', 0, 1], ['phrase', 47, 240]],
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
        P('const wallet = Wallet.fromPhrase(\n  "', phrase(12), '",\n);'),
        P('MNEMONIC=', phrase(12), '\t# dev wallet\n'),
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
        'MNEMONICS = "add sub mul div and orr eor lsl lsr asr ror cmp"',
        'mnemonic: "legal winner thank year wave sausage worth useful legal winner thank yellow"',
        'The phrase: "' + phrase(11) + '"',
      ],
    },
  },
];
