/**
 * Provenance rules (spec 000 §5): every fact shown to a user cites its source in a fixed format,
 * so a reader can tell static data from calculations and live values. Formats are templates with
 * `{name}` placeholders; define your own sources with {@link defineCitationFormats}.
 */
import { expectObject, expectOptions, expectString, kindOf, wrongKind } from '../args.ts';
import { invalidParams } from '../errors.ts';

/** Citation templates keyed by source. */
export type CitationFormats = Readonly<Record<string, string>>;

/** The spec's four sources and their citation formats. */
export const ARIA_CITATION_FORMATS = Object.freeze({
  SDE: 'Per SDE: {description}',
  EOS: 'Calculated: {value} (EOS)',
  ESI: 'Current: {value} (as of {timestamp})',
  Wiki: 'Reference: wiki.eveuniversity.org',
} as const);

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Validates citation templates (non-empty, well-formed placeholders) and freezes them. `formats`
 * must be an object of template strings (else INVALID_PARAMS).
 */
export function defineCitationFormats<const T extends Record<string, string>>(formats: T): Readonly<T> {
  expectObject(formats, 'formats');
  for (const [source, template] of Object.entries(formats)) {
    if (typeof template !== 'string' || template.trim() === '') {
      throw invalidParams(`formats.${source}`, 'must be a non-empty template such as "Per SDE: {description}"');
    }
    const stray = template.replace(PLACEHOLDER, '').match(/[{}]/);
    if (stray) throw invalidParams(`formats.${source}`, `has an unmatched "${stray[0]}"; placeholders look like {name}`);
  }
  return Object.freeze({ ...formats });
}

/**
 * Fills a citation template. Every placeholder must have a value (INVALID_PARAMS names the missing
 * one); values are inserted as text, one line, braces kept literal. A `template` that is not a
 * string, `values` that is not an object, or a value that cannot be cited as text (a symbol, an
 * invalid Date, `null`, `undefined`, an array, or an object without a `toString` of its own, which
 * would read "[object Object]") is INVALID_PARAMS naming `values.<placeholder>`.
 */
export function formatCitation(template: string, values: Readonly<Record<string, string | number | Date>> = {}): string {
  expectString(template, 'template');
  expectOptions(values, 'values');
  return template.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(values, name)) {
      throw invalidParams(name, `is needed by the citation "${template}"; pass it in the values`);
    }
    return citationText(values[name], name).replace(/\s*[\r\n]+\s*/g, ' ');
  });
}

/**
 * A citation value as text: a Date as ISO-8601, a string, number or boolean as `String` makes it,
 * an object by its own `toString` (a decimal type, say). Anything else would be cited as
 * "[object Object]", "undefined" or a comma list, which states no fact: INVALID_PARAMS.
 */
function citationText(v: unknown, name: string): string {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw invalidParams(`values.${name}`, 'is an invalid Date; pass a valid Date or an ISO-8601 string');
    return v.toISOString();
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) !== null) {
    const text = String(v);
    if (!text.startsWith('[object ')) return text;
  }
  throw invalidParams(`values.${name}`, `must be a string, a number or a Date (got ${kindOf(v)}).`, { got: kindOf(v) });
}

/** Cites a source from a format table (default: the spec's). */
export function cite(source: string, values: Readonly<Record<string, string | number | Date>> = {}, formats: CitationFormats = ARIA_CITATION_FORMATS): string {
  expectString(source, 'source');
  expectOptions(values, 'values');
  expectObject(formats, 'formats');
  if (!Object.prototype.hasOwnProperty.call(formats, source)) {
    throw invalidParams('source', `"${source}" has no citation format; known sources: ${Object.keys(formats).join(', ')}`);
  }
  return formatCitation(formats[source] as string, values);
}

/** "Per SDE: {description}". A `description` that is not a string is INVALID_PARAMS (an object would read "[object Object]"). */
export function citeSde(description: string): string {
  expectString(description, 'description');
  return cite('SDE', { description });
}

/** "Calculated: {value} (EOS)". A `value` that is not a string or a finite number (NaN, ±Infinity) is INVALID_PARAMS. */
export function citeEos(value: string | number): string {
  expectCitedValue(value);
  return cite('EOS', { value });
}

/**
 * "Current: {value} (as of {timestamp})"; a Date becomes ISO-8601, a string is kept as written.
 * A `value` that is not a string or a finite number, or a `timestamp` that is not a valid Date or a
 * string `Date.parse` reads as a time (ISO-8601), is INVALID_PARAMS: a citation must say when.
 */
export function citeEsi(value: string | number, timestamp: string | Date): string {
  expectCitedValue(value);
  if (typeof timestamp === 'string' && Number.isNaN(Date.parse(timestamp))) {
    throw invalidParams('timestamp', 'must be a date and time, such as an ISO-8601 string or a Date (got a string that is not one).');
  }
  if (typeof timestamp !== 'string' && !(timestamp instanceof Date)) throw wrongKind('timestamp', 'an ISO-8601 string or a Date', timestamp);
  return cite('ESI', { value, timestamp });
}

/** A cited value is shown to a reader: NaN or Infinity there is a calculation bug, not a fact. */
function expectCitedValue(value: unknown): void {
  if (typeof value === 'string') return;
  if (typeof value !== 'number') throw wrongKind('value', 'a string or a finite number', value);
  if (!Number.isFinite(value)) throw invalidParams('value', `must be a finite number or a string (got ${value}).`);
}

/** "Reference: wiki.eveuniversity.org" */
export function citeWiki(): string {
  return cite('Wiki');
}
