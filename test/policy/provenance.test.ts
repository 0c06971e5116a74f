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
