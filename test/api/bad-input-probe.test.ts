// Bad input a probe found reaching raw TypeErrors, RangeErrors and SyntaxErrors, or silently
// wrong answers: absurd paths and patterns at the path gate, detached byte arrays, a locked stream,
// a WebAssembly source of no known kind, buildContext options of the wrong kind and duplicate paths
// given to indexProject. Each is a typed refusal now; none depends on timing.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../../src/builder/build-context.ts';
import { indexProject } from '../../src/builder/index-project.ts';
import type { BuildContextInput, ProjectIndex } from '../../src/builder/types.ts';
import { crc32 as crc32Sync, utf8Check as utf8CheckSync } from '../../src/core/checksum.ts';
import { loadCore } from '../../src/core/load.ts';
import { createSha256Sync, sha256BytesSync, sha256HexStream, sha256HexSync, sha256ManySync } from '../../src/core/sha256.ts';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import { createCtxgate } from '../../src/ctxgate.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { checkContent, decodeText, detectEncoding, isBinary } from '../../src/secrets/content.ts';
import { createPathGate, normalizeProjectPath } from '../../src/secrets/paths.ts';
import { sha256Hex } from '../../src/shared-api.ts';
import type { Engine } from '../../src/worker/engine.ts';
import { MAX_PATH_BYTES, MAX_PATH_SEGMENTS, MAX_PATTERN_LENGTH } from '../../src/secrets/paths.ts';
import { baseInput, contentsOf, dependencies, projectFiles, symbols } from '../fixtures/project.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';
import { detached } from './wrong-kinds.ts';
import { SHA256_ABC as ABC } from '../fixtures/known-answers.ts';


let engine: Engine;
let index: ProjectIndex;

beforeAll(async () => {
  await loadCore();
  engine = await createCtxgate();
  index = await engine.indexProject(projectFiles(), { symbols, dependencies });
});

function expectInvalid(error: any, field: string, message: RegExp): void {
  expect(isCtxgateError(error, 'INVALID_PARAMS'), String(error?.stack ?? error)).toBe(true);
  expect(error.details.field).toBe(field);
  expect(error.message).toMatch(message);
}

describe('path gate: absurd paths are refused, not matched slowly or recursively', () => {
  const gate = createPathGate();
  const cases: [string, string, string][] = [
    ['50,000 segments', 'a/'.repeat(50_000) + 'x', `path longer than ${MAX_PATH_BYTES} bytes`],
    ['10,000 segments', 'a/'.repeat(10_000) + 'x', `path longer than ${MAX_PATH_BYTES} bytes`],
    ['one byte too long', 'a'.repeat(MAX_PATH_BYTES + 1), `path longer than ${MAX_PATH_BYTES} bytes`],
    ['too long in UTF-8 only', 'é'.repeat(MAX_PATH_BYTES / 2 + 1), `path longer than ${MAX_PATH_BYTES} bytes`],
    ['one segment too deep', 'a/'.repeat(MAX_PATH_SEGMENTS) + 'x', `path deeper than ${MAX_PATH_SEGMENTS} segments`],
  ];
  it('absurdly long or deep paths are outside_sandbox refusals; paths at the limits are decided by the rules', () => {
    for (const [label, path, detail] of cases) {
      expect(normalizeProjectPath(path), label).toEqual({ ok: false, detail });
      expect(gate.check(path), label).toMatchObject({ allowed: false, reason: 'outside_sandbox', detail });
    }
    const deepest = 'a/'.repeat(MAX_PATH_SEGMENTS - 1) + 'x';
    expect(gate.check(deepest)).toEqual({ allowed: true, path: deepest });
    expect(gate.check('a/'.repeat(MAX_PATH_SEGMENTS - 1) + 'id.pem')).toMatchObject({ allowed: false, reason: 'deny_rule' });
    // Empty and `.` segments are not counted: the normalised path is what is matched.
    expect(gate.check('./'.repeat(100) + 'a/'.repeat(MAX_PATH_SEGMENTS - 1) + 'x')).toEqual({ allowed: true, path: deepest });
    const longest = 'é'.repeat(MAX_PATH_BYTES / 2);
    expect(gate.check(longest)).toEqual({ allowed: true, path: longest });
  });

  it('a non-string path is INVALID_PARAMS; a bad string path stays a refusal', () => {
    for (const bad of [5, null, undefined, Symbol('s'), {}, ['a.ts']]) {
      expectInvalid(thrown(() => gate.check(bad as never)), 'path', /^path: must be a string \(got /);
      expectInvalid(thrown(() => normalizeProjectPath(bad as never)), 'path', /^path: must be a string \(got /);
    }
    expectInvalid(thrown(() => gate.checkAll(['a.ts', 5] as never)), 'paths', /^paths: item 1 must be a string \(got a number\)/);
    expect(gate.check('')).toMatchObject({ allowed: false, reason: 'outside_sandbox', detail: 'empty path' });
    expect(normalizeProjectPath('')).toEqual({ ok: false, detail: 'empty path' });
  });

  it('a deny or allow pattern too long to compile is INVALID_PARAMS naming the entry, not echoing it', () => {
    const huge = 'a'.repeat(40_000);
    for (const [options, field] of [
      [{ deny: [huge] }, 'deny[0]'],
      [{ deny: ['*.log', 'tmp/\n' + huge] }, 'deny[1]'],
      [{ allow: ['src/**', 'a*'.repeat(MAX_PATTERN_LENGTH)] }, 'allow[1]'],
    ] as const) {
      const error = thrown(() => createPathGate(options));
      expectInvalid(error, field, new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: holds a pattern of \\d+ characters; a pattern may have at most ${MAX_PATTERN_LENGTH}\\.$`));
      expect(error.message.length).toBeLessThan(200);
    }
    // The longest pattern allowed compiles and matches.
    expect(createPathGate({ deny: ['a'.repeat(MAX_PATTERN_LENGTH)] }).check('a'.repeat(MAX_PATTERN_LENGTH))).toMatchObject({ allowed: false, reason: 'deny_rule' });
  });
});

describe('detached byte arrays and locked streams are INVALID_PARAMS', () => {
  const message = /is detached \(its ArrayBuffer was transferred\); pass a live copy\.$/;
  const sync: [string, string, () => unknown][] = [
    ['sha256HexSync', 'input', () => sha256HexSync(detached())],
    ['crc32Sync', 'input', () => crc32Sync(detached())],
    ['utf8CheckSync', 'bytes', () => utf8CheckSync(detached())],
    ['checkContent', 'bytes', () => checkContent(detached())],
    ['detectEncoding', 'bytes', () => detectEncoding(detached())],
    ['isBinary', 'bytes', () => isBinary(detached())],
    ['decodeText', 'bytes', () => decodeText(detached(), { encoding: 'utf-8', bom: false })],
    ['sha256ManySync', 'inputs[1]', () => sha256ManySync(['a', detached()])],
    ['createSha256Sync().update', 'chunk', () => createSha256Sync().update(detached())],
  ];
  for (const [name, field, call] of sync) {
    it(name, () => expectInvalid(thrown(call), field, message));
  }
  // Refused by the shared byte check (args.ts), so every function taking bytes refuses them alike.
  it('sha256BytesSync and a store artifact', async () => {
    expectInvalid(thrown(() => sha256BytesSync(detached())), 'input', message);
    expectInvalid(await rejection(() => createMemoryStore().putArtifact(detached())), 'data', message);
  });

  it('sha256Hex and sha256HexStream (a detached chunk); live empty arrays are not mistaken for detached ones', async () => {
    expectInvalid(await rejection(() => sha256Hex(detached())), 'input', message);
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('a');
      yield detached();
    }
    expectInvalid(await rejection(() => sha256HexStream(chunks())), 'source', message);
    expect(sha256HexSync(new Uint8Array(0))).toBe(sha256HexSync(''));
    expect(await sha256Hex(new Uint8Array(0))).toBe(sha256HexSync(''));
    expect(checkContent(new Uint8Array(0))).toMatchObject({ allowed: true, text: '' });
    expect(sha256HexSync(new Uint8Array([0x61, 0x62, 0x63]).subarray(0))).toBe(ABC);
  });

  it('a locked ReadableStream', async () => {
    const stream = new ReadableStream<Uint8Array>();
    stream.getReader();
    expectInvalid(await rejection(() => sha256HexStream(stream)), 'source', /^source: is a ReadableStream that is locked/);
    expectInvalid(await rejection(() => sha256Hex(stream)), 'input', /^input: is a ReadableStream that is locked/);
  });

});

describe('loadCore with a source of no known kind', () => {
  it('is INVALID_PARAMS, and the loaded core stays', async () => {
    for (const bad of [5, {}, null, true, [1, 2]]) {
      expectInvalid(await rejection(() => loadCore(bad as never)), 'source', /^source: must be a WebAssembly\.Module, an ArrayBuffer, .* \(got /);
    }
    expectInvalid(await rejection(() => loadCore(Promise.resolve(5) as never)), 'source', /^source: must be a promise of a Response \(it resolved to a number\)/);
    expect(sha256HexSync('abc')).toBe(ABC);
  });
});

describe('buildContext options of the wrong kind', () => {
  const input = (): BuildContextInput => ({ ...baseInput(), projectIndex: index }) as BuildContextInput;
  const contents = contentsOf(projectFiles());

  it('are INVALID_PARAMS naming the option, not a TypeError or READ_FAILED', async () => {
    const cases: [unknown, string, RegExp][] = [
      [null, 'options', /^options: must be an object \(got null\)/],
      [5, 'options', /^options: must be an object \(got a number\)/],
      ['x', 'options', /^options: must be an object \(got a string\)/],
      [{ readFile: 5 }, 'options.readFile', /must be a function \(got a number\)/],
      [{ contents: 'src/a.ts' }, 'options.contents', /must be a Map or an object of contents by path \(got a string\)/],
      [{ contents, engine: {} }, 'options.engine', /must be an engine from createCtxgate\(\)/],
      [{ contents, engine, logger: 'log' }, 'options.logger', /must be a function \(got a string\)/],
      [{ contents, engine, hidePathsInLogs: 1 }, 'options.hidePathsInLogs', /must be a boolean \(got a number\)/],
    ];
    for (const [options, field, message] of cases) {
      expectInvalid(await rejection(() => buildContext(input(), options as never)), field, message);
    }
  });

  it('content of the wrong kind, or detached, is INVALID_PARAMS naming the path', async () => {
    const path = 'src/db/client.ts';
    const wrong = new Map<string, unknown>([...contents, [path, 42]]);
    const e1 = await rejection(() => buildContext(input(), { contents: wrong as never, engine }));
    expectInvalid(e1, 'options.contents', /must hold a string or a Uint8Array for src\/db\/client\.ts \(got a number\)/);
    const dead = new Map<string, Uint8Array | string>([...contents, [path, detached()]]);
    const e2 = await rejection(() => buildContext(input(), { contents: dead, engine }));
    expectInvalid(e2, 'options.contents', /must hold live bytes for src\/db\/client\.ts; the Uint8Array is detached/);
    const rest = new Map(contents);
    rest.delete(path);
    const e3 = await rejection(() => buildContext(input(), { contents: rest, engine, readFile: async () => 7 as never }));
    expectInvalid(e3, 'options.readFile', /must return a string or a Uint8Array for src\/db\/client\.ts \(got a number\)/);
  });
});

describe('indexProject with two files of one path', () => {
  it('is INVALID_PARAMS naming the path and both indexes, also after normalisation', async () => {
    const cases: [{ path: string; text: string }[], number, number, string][] = [
      [[{ path: 'a.ts', text: 'first' }, { path: 'a.ts', text: 'second!' }], 1, 0, 'a.ts'],
      [[{ path: './a.ts', text: 'first' }, { path: 'b.ts', text: 'b' }, { path: 'a.ts', text: 'second!' }], 2, 0, 'a.ts'],
      [[{ path: 'src//x/a.ts', text: '1' }, { path: 'src/./x/a.ts', text: '2' }], 1, 0, 'src/x/a.ts'],
    ];
    for (const [files, at, first, path] of cases) {
      for (const [call, field] of [
        [() => indexProject(files, { engine }), 'source'],
        [() => engine.indexProject(files), 'files'],
      ] as const) {
        const error = await rejection(call);
        expectInvalid(error, `${field}[${at}].path`, new RegExp(`names the same file as ${field}\\[${first}\\]\\.path \\(${JSON.stringify(path).replace(/[.]/g, '\\.')} after normalisation\\)`));
        expect(error.details).toMatchObject({ path, index: at, firstIndex: first });
      }
    }
    const r = await indexProject([{ path: 'a.ts', text: 'x' }, { path: 'A.ts', text: 'y' }], { engine });
    expect(r.files.map((f) => f.path)).toEqual(['A.ts', 'a.ts']);
  });

  it('a detached bytes member is INVALID_PARAMS too', async () => {
    const error = await rejection(() => indexProject([{ path: 'a.ts', bytes: detached() }], { engine }));
    expectInvalid(error, 'source[0].bytes', /is detached/);
  });

});
