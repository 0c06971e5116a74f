// The component in Node: transpiled here with jco's programmatic API (the default ESM output, which
// loads its core module from disk), then held to the shared contract. Also checks the build's
// artifacts: canonical-ABI export names, the WIT the component carries, and the generated types.
import { mkdir, readFile, rm, writeFile, access } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { componentWit, transpile } from '@bytecodealliance/jco';
import { componentContract } from './component.contract.ts';
import { WORLD_EXPORTS, type CtxgateComponent } from './world.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const componentPath = join(root, 'dist/component/ctxgate.component.wasm');
const coreModulePath = join(root, 'build/out/ctxgate-core.component-core.wasm');
const typesPath = join(root, 'dist/component/types/ctxgate.d.ts');
const outDir = join(root, 'test-output/component/node');
const enc = new TextEncoder();

/** The err payload of a `result` export (thrown by jco as a ComponentError). */
function errOfCall(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return (error as { payload?: unknown }).payload;
  }
  return 'returned ok';
}

async function readBuilt(path: string): Promise<Uint8Array> {
  try {
    await access(path);
  } catch {
    throw new Error(`${path} is missing: run \`node build/component.mjs\` (or \`npm run build\`) before this suite.`);
  }
  return new Uint8Array(await readFile(path));
}

let transpiled: Promise<{ module: CtxgateComponent; exports: [string, string][] }> | undefined;

/** Transpiles the built component once into test-output/ and imports it. */
function loadTranspiled(): Promise<{ module: CtxgateComponent; exports: [string, string][] }> {
  transpiled ??= (async () => {
    const { files, exports } = await transpile(await readBuilt(componentPath), { name: 'ctxgate.component', quiet: true });
    await rm(outDir, { recursive: true, force: true });
    for (const [name, bytes] of Object.entries(files)) {
      const path = join(outDir, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes);
    }
    const module = (await import(/* @vite-ignore */ pathToFileURL(join(outDir, 'ctxgate.component.js')).href)) as CtxgateComponent;
    return { module, exports };
  })();
  return transpiled;
}

componentContract({ describe, it, expect, runtime: 'node' }, async () => (await loadTranspiled()).module);

describe('component build artifacts', () => {
  it('the core module exports exactly the canonical-ABI names of the world', async () => {
    const core = await WebAssembly.compile((await readBuilt(coreModulePath)) as Uint8Array<ArrayBuffer>);
    const names = WebAssembly.Module.exports(core)
      .map((e) => e.name)
      .sort();
    expect(names).toEqual(
      [
        'memory',
        'cabi_realloc',
        'sha256',
        'cabi_post_sha256',
        'sha256-hex',
        'cabi_post_sha256-hex',
        'sha256-batch',
        'cabi_post_sha256-batch',
        'crc32',
        'utf8-check',
        'sort-blocks',
        'cabi_post_sort-blocks',
        'scan-secrets',
        'cabi_post_scan-secrets',
        'secret-rules',
        'cabi_post_secret-rules',
        'estimate-tokens',
        'estimator-version',
      ].sort(),
    );
    // No imports: the component needs nothing from its host (no WASI, no abort).
    expect(WebAssembly.Module.imports(core)).toEqual([]);
  });

  it('the component carries the world of wit/ctxgate.wit, and jco sees every export as a function', async () => {
    const wit = await componentWit(await readBuilt(componentPath));
    expect(wit).toContain('export sha256: func(data: list<u8>) -> list<u8>;');
    expect(wit).toContain('export sha256-batch: func(items: list<list<u8>>) -> list<list<u8>>;');
    expect(wit).toContain('export crc32: func(data: list<u8>, seed: u32) -> u32;');
    expect(wit).toContain('export utf8-check: func(data: list<u8>) -> result<u32, u32>;');
    expect(wit).toContain('export sort-blocks: func(items: list<block-key>) -> result<list<u32>, string>;');
    expect(wit).toContain('export scan-secrets: func(data: list<u8>) -> list<secret-finding>;');
    expect(wit).toContain('export estimate-tokens: func(text: string, encoding: token-encoding) -> u32;');
    expect(wit).not.toMatch(/^\s*import /m);
    const { exports } = await loadTranspiled();
    expect(exports.map(([name, kind]) => `${name}:${kind}`).sort()).toEqual(WORLD_EXPORTS.map((n) => `${n}:function`).sort());
  });

  it('the generated TypeScript types declare every export of the world', async () => {
    const types = new TextDecoder().decode(await readBuilt(typesPath));
    const declared = [...types.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1]);
    expect(declared).toEqual([...WORLD_EXPORTS]);
    expect(types).toContain('export interface SecretFinding {');
    expect(types).toContain("export type TokenEncoding = 'o200k-base' | 'cl100k-base';");
  });

  /** A fresh instance of the async-instantiation build with its memory in view. */
  async function instanceWithMemory(): Promise<{ c: CtxgateComponent; pages: () => number }> {
    const { instantiate } = (await import(/* @vite-ignore */ pathToFileURL(join(root, 'build/out/component-js/ctxgate.component.js')).href)) as {
      instantiate(
        getCoreModule: (path: string) => Promise<WebAssembly.Module>,
        imports: object,
        instantiateCore: (m: WebAssembly.Module, i: WebAssembly.Imports) => Promise<WebAssembly.Instance>,
      ): Promise<CtxgateComponent>;
    };
    let memory: WebAssembly.Memory | undefined;
    const c = await instantiate(
      async (path) => WebAssembly.compile((await readBuilt(join(root, 'build/out/component-js', path))) as Uint8Array<ArrayBuffer>),
      {},
      async (m, i) => {
        const instance = await WebAssembly.instantiate(m, i);
        if (instance.exports.memory instanceof WebAssembly.Memory) memory = instance.exports.memory;
        return instance;
      },
    );
    return { c, pages: () => memory!.buffer.byteLength >>> 16 };
  }

  it("docs/COMPONENT.md's scan-secrets sample prints what the component returns (rule numbers change with the rules)", async () => {
    const doc = await readFile(join(root, 'docs/COMPONENT.md'), 'utf8');
    const sample = /^text = "([^"]*)"\n(?:.*\n){2}((?:# \d+ .*\n)+)/m.exec(doc);
    expect(sample, 'the Python scan-secrets sample in docs/COMPONENT.md').not.toBeNull();
    const [, text, printed] = sample!;
    const documented = printed!.trimEnd().split('\n').map((line) => line.slice(2).replace(/\s{2,}\(.*$/, '').trim());
    const { module: c } = await loadTranspiled();
    const actual = c.scanSecrets(enc.encode(text!)).map((f) => `${f.ruleIndex} ${f.ruleId} ${f.confidence} ${f.start} ${f.end}`);
    expect(documented).toEqual(actual);
  });

  it('large inputs are freed: memory stays flat over repeated calls', async () => {
    const { c, pages } = await instanceWithMemory();
    const big = new Uint8Array(1 << 16).fill(0x61);
    const blocks = Array.from({ length: 64 }, (_, k) => ({ priority: k % 4, blockTypeRank: k % 7, key: 'k'.repeat(k * 10) }));
    const round = (): void => {
      c.sha256(big);
      c.sha256Hex(big);
      c.sha256Batch([big, big.subarray(1), new Uint8Array(0)]);
      c.crc32(big, 7);
      c.utf8Check(big);
      c.sortBlocks(blocks);
      c.scanSecrets(big);
      c.estimateTokens('hello world '.repeat(200), 'cl100k-base');
      expect(errOfCall(() => c.sortBlocks([{ priority: 9, blockTypeRank: 0, key: 'x'.repeat(5000) }]))).toMatch(/priority/);
    };
    for (let i = 0; i < 10; i++) round();
    const settled = pages();
    for (let i = 0; i < 100; i++) round();
    expect(pages()).toBe(settled);
  });

  it('small results are freed by post-return: 8 000 calls of each kind leave memory flat', async () => {
    const { c, pages } = await instanceWithMemory();
    const small = enc.encode('token AKIA' + 'Z7QRSTUVWXYZ2345');
    const round = (): void => {
      c.sha256(small);
      c.sha256Hex(small);
      c.sha256Batch([small, small]);
      c.sortBlocks([{ priority: 1, blockTypeRank: 3, key: 'b' }, { priority: 0, blockTypeRank: 0, key: 'a' }]);
      c.scanSecrets(small);
      c.estimateTokens('hi', 'o200k-base');
      expect(errOfCall(() => c.sortBlocks([{ priority: 0, blockTypeRank: 9, key: 'k' }]))).toMatch(/block-type-rank/);
      expect(errOfCall(() => c.utf8Check(new Uint8Array([0x61, 0xff])))).toBe(1);
    };
    for (let i = 0; i < 100; i++) round();
    const settled = pages();
    // A leak of even the smallest heap block per call would need far more than the slack left.
    for (let i = 0; i < 8000; i++) round();
    expect(pages()).toBe(settled);
    for (let i = 0; i < 200; i++) c.secretRules();
    expect(pages()).toBe(settled);
  }, 60_000); // 24,000 calls through the transpiled component: minutes on a loaded machine are not a failure
});
