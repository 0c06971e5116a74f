// The content gate of src/secrets/content.ts, decided by the core in one pass over the bytes (assembly/text.ts)
// instead of a native decode plus a regex scan of the decoded string: the builder runs the gate on
// every file twice (indexing and building), and on large trees the regex scan alone cost more than
// hashing. Same decisions, same encodings and details (a differential test holds them together);
// the rare inputs the core pass does not settle (a BOM, bytes that are not UTF-8) take
// checkContent itself.
import { textFacts } from '../core/text.ts';
import { countLines } from './lines.ts';
import { CONTROLS_DETAIL, MAX_CONTROL_RATIO, UNKNOWN_ENCODING_DETAIL, bomEncoding, checkContent, type TextEncodingName } from '../secrets/content.ts';

/** The gate's verdict with the line count of the text; the text itself only when asked for. */
export type GateVerdict =
  | { readonly allowed: true; readonly encoding: Exclude<TextEncodingName, 'unknown'>; readonly bom: boolean; readonly lineCount: number; readonly text?: string }
  | { readonly allowed: false; readonly reason: 'binary'; readonly encoding: TextEncodingName; readonly detail: string };

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decides text or binary for bytes of any size (size limits are the caller's), as
 * {@link checkContent} does; `decode` adds the decoded text. Synchronous: needs the core loaded.
 */
export function gateContent(bytes: Uint8Array, decode: boolean): GateVerdict {
  const facts = bomEncoding(bytes) === undefined ? textFacts(bytes) : undefined;
  if (facts === undefined || facts.status === 'malformed') {
    const d = checkContent(bytes, { maxBytes: Number.MAX_SAFE_INTEGER });
    if (!d.allowed) return { allowed: false, reason: 'binary', encoding: d.encoding, detail: d.detail };
    return { allowed: true, encoding: d.encoding, bom: d.bom, lineCount: countLines(d.text), ...(decode ? { text: d.text } : {}) };
  }
  if (facts.status === 'nul') return { allowed: false, reason: 'binary', encoding: 'unknown', detail: UNKNOWN_ENCODING_DETAIL };
  const encoding = facts.ascii ? 'ascii' : 'utf-8';
  if (facts.units > 0 && facts.controls > MAX_CONTROL_RATIO * facts.units) return { allowed: false, reason: 'binary', encoding, detail: CONTROLS_DETAIL };
  // countLines: a last line without a newline counts; an empty text has none.
  const lineCount = facts.units === 0 ? 0 : facts.newlines + (bytes[bytes.length - 1] === 0x0a ? 0 : 1);
  // The core proved the bytes well-formed, so the replacing decoder gives exactly the fatal one's text.
  return { allowed: true, encoding, bom: false, lineCount, ...(decode ? { text: utf8.decode(bytes) } : {}) };
}
