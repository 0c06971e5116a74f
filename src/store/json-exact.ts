import { jsonStringBytes } from '../encoding/utf8-size.ts';
import { numberBound } from './json-bound.ts';

/**
 * Exact UTF-8 sizes of the pieces of JSON text that are not strings' contents: a member name with
 * its quotes, a number as `Number#toString` writes it. json-size.ts counts a value's size from its
 * tape with these, and json-tape.ts while recording one; both must give `JSON.stringify`'s count.
 */

/**
 * JSON bytes of member names, by name. Names repeat in every object of a kind (`id`, `content`,
 * ...), so a lookup usually replaces a scan. Keyed by the name itself (content, not identity), so
 * an entry is always right; bounded, cleared when full.
 */
const nameBytes = new Map<string, number>();
const MAX_NAMES = 2048;

/** Bytes of a member name in JSON, quotes included (its colon is the caller's). */
export function memberNameBytes(name: string): number {
  let known = nameBytes.get(name);
  if (known === undefined) {
    if (nameBytes.size >= MAX_NAMES) nameBytes.clear();
    nameBytes.set(name, (known = jsonStringBytes(name)));
  }
  return known;
}

/**
 * Bytes of a finite number in JSON: Number#toString's form (-0 included: both write "0"). The bound
 * of json-bound.ts is exact for integers under a billion; others are written out.
 */
export function numberBytes(value: number): number {
  return Number.isInteger(value) && value > -1e9 && value < 1e9 ? numberBound(value) : String(value).length;
}
