/**
 * Provenance rules (spec 000 §5): every fact shown to a user cites its source in a fixed format,
 * so a reader can tell static data from calculations and live values. Formats are templates with
 * `{name}` placeholders; define your own sources with {@link defineCitationFormats}.
 */
import { expectObject, expectOptions, expectString, kindOf } from '../args.ts';
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
 * string, `values` that is not an object, or a value that cannot be text (a symbol, an invalid
 * Date) is INVALID_PARAMS.
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

/** A citation value as text: a Date as ISO-8601, anything else as `String` makes it. */
function citationText(v: unknown, name: string): string {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw invalidParams(`values.${name}`, 'is an invalid Date; pass a valid Date or an ISO-8601 string');
    return v.toISOString();
  }
  if (typeof v === 'symbol' || (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === null)) {
    throw invalidParams(`values.${name}`, `must be a string, a number or a Date (got ${kindOf(v)}).`);
  }
  return String(v);
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

/** "Per SDE: {description}" */
export function citeSde(description: string): string {
  return cite('SDE', { description });
}

/** "Calculated: {value} (EOS)" */
export function citeEos(value: string | number): string {
  return cite('EOS', { value });
}

/** "Current: {value} (as of {timestamp})"; a Date becomes ISO-8601. */
export function citeEsi(value: string | number, timestamp: string | Date): string {
  return cite('ESI', { value, timestamp });
}

/** "Reference: wiki.eveuniversity.org" */
export function citeWiki(): string {
  return cite('Wiki');
}
