import { describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { cite, citeEos, citeEsi, citeSde, citeWiki, defineCitationFormats, formatCitation } from '../../src/policy/provenance.ts';
import { expectCtxgateError } from './helpers.ts';

describe('spec 000 §5 provenance citation formats', () => {
  it('SDE: "Per SDE: {description}"', () => {
    expect(citeSde('Rifter base speed is 365 m/s')).toBe('Per SDE: Rifter base speed is 365 m/s');
  });
  it('EOS: "Calculated: {value} (EOS)"', () => {
    expect(citeEos('412.5 DPS')).toBe('Calculated: 412.5 DPS (EOS)');
  });
  it('ESI: "Current: {value} (as of {timestamp})"', () => {
    expect(citeEsi('4.50 ISK', '2026-01-22T12:00:00+00:00')).toBe('Current: 4.50 ISK (as of 2026-01-22T12:00:00+00:00)');
    expect(citeEsi(12, new Date(Date.UTC(2026, 0, 22, 12)))).toBe('Current: 12 (as of 2026-01-22T12:00:00.000Z)');
  });
  it('Wiki: "Reference: wiki.eveuniversity.org"', () => {
    expect(citeWiki()).toBe('Reference: wiki.eveuniversity.org');
  });
});

describe('custom citation formats', () => {
  const formats = defineCitationFormats({ Repo: 'From {path}@{commit}' });
  it('fills placeholders and keeps values on one line', () => {
    expect(cite('Repo', { path: 'src/a.ts', commit: 'abc\n123' }, formats)).toBe('From src/a.ts@abc 123');
  });
  it('missing values, unknown sources and malformed templates are INVALID_PARAMS', () => {
    for (const fn of [
      () => formatCitation('Per {x}', {}),
      () => cite('Nope', {}, formats),
      () => defineCitationFormats({ Bad: 'Per {x' }),
      () => defineCitationFormats({ Empty: ' ' }),
    ]) {
      try {
        fn();
        expect.unreachable();
      } catch (e) {
        expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      }
    }
  });
});

describe('arguments of the wrong kind', () => {
  it('names the template, values, source and formats', () => {
    expectCtxgateError(() => formatCitation(42 as never), 'INVALID_PARAMS', 'template');
    expectCtxgateError(() => formatCitation('Per {x}', null as never), 'INVALID_PARAMS', 'values');
    expectCtxgateError(() => cite(Symbol('s') as never), 'INVALID_PARAMS', 'source');
    expectCtxgateError(() => cite('SDE', { description: 'd' }, 'formats' as never), 'INVALID_PARAMS', 'formats');
    expectCtxgateError(() => defineCitationFormats(undefined as never), 'INVALID_PARAMS', 'formats');
  });

  it('a value that cannot be text (a symbol, an invalid Date) names its placeholder', () => {
    expectCtxgateError(() => formatCitation('Per {x}', { x: Symbol('s') as never }), 'INVALID_PARAMS', 'values.x');
    expectCtxgateError(() => citeEsi(5, new Date(Number.NaN)), 'INVALID_PARAMS', 'values.timestamp');
    // Other values are still made text as before.
    expect(formatCitation('{a} {b}', { a: true as never, b: 0 })).toBe('true 0');
  });
});

describe('review fixes: a citation states a fact, never "[object Object]"', () => {
  it('citeSde refuses a description that is not a string', () => {
    for (const bad of [{}, null, undefined, 42, ['a']]) expectCtxgateError(() => citeSde(bad as never), 'INVALID_PARAMS', 'description');
  });

  it('cite and formatCitation refuse values that would read "[object Object]", "undefined", "null" or a list', () => {
    for (const bad of [{}, null, undefined, ['a', 'b'], () => 1]) {
      expectCtxgateError(() => cite('SDE', { description: bad as never }), 'INVALID_PARAMS', 'values.description');
    }
    expectCtxgateError(() => formatCitation('Calculated: {value} (EOS)', { value: { dps: 1 } as never }), 'INVALID_PARAMS', 'values.value');
    // An object with its own toString (a decimal type) is still cited by it.
    const decimal = { toString: () => '412.50' };
    expect(formatCitation('Calculated: {value} (EOS)', { value: decimal as never })).toBe('Calculated: 412.50 (EOS)');
    // The other cite* functions already refuse such values, naming their own parameter.
    expectCtxgateError(() => citeEos({} as never), 'INVALID_PARAMS', 'value');
    expectCtxgateError(() => citeEsi(1, {} as never), 'INVALID_PARAMS', 'timestamp');
  });
});
