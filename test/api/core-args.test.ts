// Arguments of the wrong kind to the core's functions, the package-level async functions, the
// engine factory and the error helpers: INVALID_PARAMS naming the parameter (never echoing the
// value), or a typed error where the value cannot be represented; never a TypeError from inside.
// The package-level functions check in the caller's thread, before anything goes to a worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelWorker } from './channel-worker.ts';
import {
  blockGroup,
  compareUtf8,
  crc32Sync,
  createCtxgate,
  createSha256Sync,
  CtxgateError,
  deserializeError,
  estimateTokens,
  estimatorEncoder,
  init,
  isCtxgateError,
  serializeError,
  sha256Hex,
  sha256HexStream,
  sha256HexSync,
  sha256Many,
  sha256ManySync,
  shutdown,
  sortBlockKeys,
  sortBlockKeysSync,
  sortByGroupAndKeySync,
  utf8CheckSync,
  type BlockSortKey,
} from '../../src/index.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';
import { expectFunctionArgumentRefused } from './wrong-kinds.ts';
import { SHA256_ABC as ABC } from '../fixtures/known-answers.ts';


/** INVALID_PARAMS naming `field`, and (where given) a message that does not contain `secret`. */
function expectInvalid(error: unknown, field: string, secret?: string): void {
  expect(isCtxgateError(error, 'INVALID_PARAMS'), String(error)).toBe(true);
  expect((error as CtxgateError).details.field).toBe(field);
  if (secret !== undefined) expect((error as CtxgateError).message).not.toContain(secret);
}

async function* chunks(...items: unknown[]): AsyncGenerator<unknown> {
  for (const item of items) yield item;
}

beforeAll(async () => {
  await init();
});
afterAll(async () => {
  await shutdown();
});

describe('core functions refuse arguments of the wrong kind', () => {
  it('crc32Sync names input and seed; utf8CheckSync names bytes', () => {
    expectInvalid(thrown(() => crc32Sync(undefined as unknown as string)), 'input');
    expectInvalid(thrown(() => crc32Sync('x', Symbol('s') as unknown as number)), 'seed');
    expectInvalid(thrown(() => crc32Sync('x', 10n as unknown as number)), 'seed');
    expectInvalid(thrown(() => utf8CheckSync('abc' as unknown as Uint8Array)), 'bytes');
    // Valid input is unchanged.
    expect(crc32Sync('123456789')).toBe(0xcbf43926);
    expect(crc32Sync('6789', crc32Sync('12345'))).toBe(0xcbf43926);
  });

  it('sha256HexSync names input; sha256ManySync names inputs with the index of a bad item', () => {
    expectInvalid(thrown(() => sha256HexSync(null as unknown as string)), 'input');
    expectInvalid(thrown(() => sha256ManySync(null as unknown as string[])), 'inputs');
    const error = thrown(() => sha256ManySync(['abc', 42 as unknown as string]));
    expectInvalid(error, 'inputs');
    expect((error as CtxgateError).details.index).toBe(1);
    expect(sha256ManySync(['abc', new TextEncoder().encode('abc')])).toEqual([ABC, ABC]);
  });

  it('a hasher refuses a chunk that is neither text nor bytes, and keeps working', () => {
    const hasher = createSha256Sync();
    expectInvalid(thrown(() => hasher.update(42 as unknown as string)), 'chunk');
    expect(hasher.update('abc').digestHex()).toBe(ABC);
  });

  it('sha256HexStream names source for a non-stream and for a chunk that is not bytes', async () => {
    expectInvalid(await rejection(sha256HexStream(42 as unknown as Blob)), 'source');
    expectInvalid(await rejection(sha256HexStream({} as unknown as Blob)), 'source');
    expectInvalid(await rejection(sha256HexStream(chunks(new Uint8Array([1]), 7) as AsyncIterable<Uint8Array>)), 'source');
    expect(await sha256HexStream(chunks(new TextEncoder().encode('a'), new TextEncoder().encode('bc')) as AsyncIterable<Uint8Array>)).toBe(ABC);
    expect(await sha256HexStream(new Blob(['abc']))).toBe(ABC);
  });

  it('sha256HexStream reads a ReadableStream through its reader where streams are not async iterable', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('ab'));
        controller.enqueue(new TextEncoder().encode('c'));
        controller.close();
      },
    });
    // As in Safari: no Symbol.asyncIterator.
    Object.defineProperty(stream, Symbol.asyncIterator, { value: undefined });
    expect(await sha256HexStream(stream)).toBe(ABC);
    expect(stream.locked).toBe(false);
  });

  it('blockGroup names priority or blockType and never echoes the value', () => {
    expectInvalid(thrown(() => blockGroup('P0-SECRET-VALUE', 'file')), 'priority', 'P0-SECRET-VALUE');
    expectInvalid(thrown(() => blockGroup(10n as unknown as string, 'file')), 'priority');
    expectInvalid(thrown(() => blockGroup('P0', 'image-SECRET')), 'blockType', 'image-SECRET');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expectInvalid(thrown(() => blockGroup('P1', cyclic as unknown as string)), 'blockType');
    expect(blockGroup('P1', 'file')).toBe((1 << 8) | 3);
  });

  it('sortBlockKeysSync names items, a bad item by index, and a key that is not a string', () => {
    expectInvalid(thrown(() => sortBlockKeysSync(undefined as unknown as BlockSortKey[])), 'items');
    const item = thrown(() => sortBlockKeysSync([{ priority: 'P0', blockType: 'file', key: 'a' }, null as unknown as BlockSortKey]));
    expectInvalid(item, 'items');
    expect((item as CtxgateError).details.index).toBe(1);
    const key = thrown(() => sortBlockKeysSync([{ priority: 'P0', blockType: 'file', key: 5 as unknown as string }]));
    expectInvalid(key, 'key');
    expect((key as CtxgateError).details.index).toBe(0);
    expect(
      Array.from(
        sortBlockKeysSync([
          { priority: 'P1', blockType: 'file', key: 'b' },
          { priority: 'P0', blockType: 'file', key: 'z' },
          { priority: 'P1', blockType: 'file', key: 'a' },
        ]),
      ),
    ).toEqual([1, 2, 0]);
  });

  it('sortByGroupAndKeySync names groups and keys, also for a bad item', () => {
    expectInvalid(thrown(() => sortByGroupAndKeySync(null as unknown as number[], [])), 'groups');
    expectInvalid(thrown(() => sortByGroupAndKeySync([], 'x' as unknown as string[])), 'keys');
    expectInvalid(thrown(() => sortByGroupAndKeySync([0], [Symbol('k') as unknown as string])), 'keys');
    expectInvalid(thrown(() => sortByGroupAndKeySync([10n as unknown as number], ['a'])), 'groups');
    expect(Array.from(sortByGroupAndKeySync(new Uint32Array([1, 0]), ['a', 'b']))).toEqual([1, 0]);
  });

  it('compareUtf8 names a and b', () => {
    expectInvalid(thrown(() => compareUtf8(undefined as unknown as string, 'x')), 'a');
    expectInvalid(thrown(() => compareUtf8('x', null as unknown as string)), 'b');
    expect(compareUtf8('\u{10000}', '\uffff')).toBe(1);
  });

  it('estimateTokens names options and options.encoding; estimatorEncoder names encoding', () => {
    expectInvalid(thrown(() => estimateTokens('x', null as unknown as object)), 'options');
    expectInvalid(thrown(() => estimateTokens('x', { encoding: 10n as unknown as 'o200k_base' })), 'options.encoding');
    expectInvalid(thrown(() => estimatorEncoder(Symbol('e') as unknown as 'o200k_base')), 'encoding');
    expectInvalid(thrown(() => estimatorEncoder('p50k_base' as unknown as 'o200k_base')), 'encoding');
    expect(estimatorEncoder('cl100k_base')).toBe('ctxgate-est/1:cl100k_base');
    expect(estimatorEncoder(undefined as unknown as 'o200k_base')).toBe('ctxgate-est/1:o200k_base');
    expect(estimateTokens('hello world', { encoding: 'cl100k_base' }).encoder).toBe('ctxgate-est/1:cl100k_base');
  });
});

describe('package-level async functions check their arguments', () => {
  it('sha256Hex, sha256Many and sortBlockKeys reject with INVALID_PARAMS naming the parameter', async () => {
    expectInvalid(await rejection(sha256Hex(42 as unknown as string)), 'input');
    expectInvalid(await rejection(sha256Hex((() => 1) as unknown as string)), 'input');
    expectInvalid(await rejection(sha256Many([() => 1] as unknown as string[])), 'inputs');
    expectInvalid(await rejection(sha256Many('abc' as unknown as string[])), 'inputs');
    expectInvalid(await rejection(sortBlockKeys('x' as unknown as BlockSortKey[])), 'items');
    expectInvalid(await rejection(sortBlockKeys([{ priority: 'P9', blockType: 'file', key: 'a' } as unknown as BlockSortKey])), 'priority');
    expect(await sha256Hex('abc')).toBe(ABC);
    expect(await sha256Many(['abc'])).toEqual([ABC]);
  });
});

describe('with the shared engine in a worker, bad arguments fail in the caller thread', () => {
  beforeAll(async () => {
    await shutdown();
    const engine = await init({ worker: channelWorker() });
    expect(engine.mode).toBe('worker');
  });
  afterAll(async () => {
    await shutdown();
  });

  it('a function in sha256Many is INVALID_PARAMS, not a DataCloneError from postMessage', async () => {
    expectInvalid(await rejection(sha256Many(['abc', () => 1] as unknown as string[])), 'inputs');
    expect(await sha256Many(['abc'])).toEqual([ABC]);
  });

  it('an async iterable that is not a ReadableStream cannot go to the worker: INVALID_PARAMS', async () => {
    expectInvalid(await rejection(sha256Hex(chunks(new Uint8Array([1])) as unknown as ReadableStream<Uint8Array>)), 'input');
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(ABC);
  });

  it("an engine method given a value structured clone refuses rejects with UNSUPPORTED_VALUE naming the method, never the value's text", async () => {
    const engine = await init();
    await expectFunctionArgumentRefused(engine);
    // The engine goes on working.
    expect(await engine.sha256Many(['abc'])).toEqual([ABC]);
  });

  it('sortBlockKeys sends only the three fields, so items with methods sort as plain ones', async () => {
    class Block {
      constructor(
        readonly priority: string,
        readonly blockType: string,
        readonly key: string,
      ) {}
      describe(): string {
        return this.key;
      }
      callback = (): number => 1;
    }
    const items = [new Block('P2', 'file', 'a'), new Block('P0', 'file', 'b')] as unknown as BlockSortKey[];
    expect(Array.from(await sortBlockKeys(items))).toEqual([1, 0]);
  });
});

describe('createCtxgate checks its options', () => {
  it('options must be an object; worker a Worker or false; transferInputs a boolean', async () => {
    expectInvalid(await rejection(createCtxgate(null as unknown as object)), 'options');
    expectInvalid(await rejection(createCtxgate('x' as unknown as object)), 'options');
    expectInvalid(await rejection(createCtxgate({ worker: true as unknown as false })), 'options.worker');
    expectInvalid(await rejection(createCtxgate({ worker: {} as unknown as Worker })), 'options.worker');
    expectInvalid(await rejection(createCtxgate({ transferInputs: 'yes' as unknown as boolean })), 'options.transferInputs');
  });

  it('init with bad options rejects and is not cached: the next init starts an engine', async () => {
    await shutdown();
    expectInvalid(await rejection(init(null as unknown as object)), 'options');
    const engine = await init();
    expect(await engine.crc32('123456789')).toBe(0xcbf43926);
  });
});

describe('serializeError and deserializeError on data that is not an error', () => {
  it('deserializeError of a non-object returns INTERNAL_ERROR naming its kind, never its value', () => {
    for (const [value, got] of [
      [undefined, 'undefined'],
      [null, 'null'],
      ['sk-live-SECRET', 'string'],
      [42, 'number'],
      [[], 'an array'],
    ] as const) {
      const error = deserializeError(value as never);
      expect(isCtxgateError(error, 'INTERNAL_ERROR')).toBe(true);
      expect((error as CtxgateError).details).toEqual({ got });
      expect(error.message).not.toContain('SECRET');
    }
  });

  it('deserializeError rebuilds a partial or malformed object without throwing', () => {
    const bare = deserializeError({} as never);
    expect(bare).toBeInstanceOf(Error);
    expect(bare.name).toBe('Error');
    expect(bare.message).toBe('');
    // A name that is an Object.prototype member is not a subclass.
    const proto = deserializeError({ name: 'toString', code: 'CONFLICT', message: 'm' } as never);
    expect(proto).toBeInstanceOf(CtxgateError);
    expect((proto as CtxgateError).code).toBe('CONFLICT');
    expect(isCtxgateError({ name: 'toString', code: 'CONFLICT', details: {} })).toBe(false);
    // Mistyped members fall back; a non-string code is not a ctxgate code.
    const odd = deserializeError({ name: 1, message: {}, code: 5, details: 'x', stack: 3 } as never);
    expect(isCtxgateError(odd)).toBe(false);
    expect(odd.message).toBe('');
  });

  it('deserializeError stops at a cyclic cause chain', () => {
    const data: Record<string, unknown> = { name: 'CtxgateError', code: 'INVALID_PARAMS', message: 'loop', details: {} };
    data.cause = data;
    const error = deserializeError(data as never);
    let depth = 0;
    for (let e: unknown = error; e instanceof Error; e = e.cause) depth++;
    expect(depth).toBeGreaterThan(1);
    expect(depth).toBeLessThan(40);
  });

  it('serializeError of a value String() cannot convert still returns plain data', () => {
    const out = serializeError(Object.create(null));
    expect(out.name).toBe('Error');
    expect(typeof out.message).toBe('string');
    expect(serializeError(Symbol('s')).message).toBe('Symbol(s)');
  });

  it('a round trip keeps class, code and details', () => {
    const back = deserializeError(structuredClone(serializeError(new CtxgateError('READ_FAILED', 'gone', { details: { path: 'a' } }))));
    expect(isCtxgateError(back, 'READ_FAILED')).toBe(true);
    expect((back as CtxgateError).details).toEqual({ path: 'a' });
  });
});
