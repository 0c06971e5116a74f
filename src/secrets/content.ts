import { expectBytes, expectLive, expectObject, expectOptions } from '../args.ts';
import { invalidParams } from '../errors.ts';

/** The text encodings a context block can declare (spec 001, ContextBlock.encoding). */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'ascii' | 'windows-1252' | 'unknown';

/** Result of {@link detectEncoding}. */
export interface EncodingDetection {
  readonly encoding: TextEncodingName;
  /** True when a byte-order mark was present (and is not part of the decoded text). */
  readonly bom: boolean;
}

/** Options of {@link checkContent}. */
export interface ContentGateOptions {
  /** Largest file accepted, in bytes (default 1 MiB). */
  readonly maxBytes?: number;
}

/** The content gate's verdict on a file's bytes. */
export type ContentDecision =
  | { readonly allowed: true; readonly encoding: Exclude<TextEncodingName, 'unknown'>; readonly bom: boolean; readonly text: string }
  | { readonly allowed: false; readonly reason: 'binary' | 'too_large'; readonly encoding: TextEncodingName; readonly detail: string };

const DEFAULT_MAX_BYTES = 1024 * 1024;
/** More control characters than this share of the text means binary (fail closed). */
export const MAX_CONTROL_RATIO = 0.002;
/** Why bytes with a NUL or an encoding we cannot name are refused. */
export const UNKNOWN_ENCODING_DETAIL = 'NUL bytes or an encoding that is neither UTF-8, UTF-16 with a BOM nor windows-1252';
/** Why a text with too many control characters is refused. */
export const CONTROLS_DETAIL = 'too many control characters for text';
/** A legacy 8-bit text is mostly ASCII; past this share of high bytes it is not text we can name. */
const MAX_HIGH_BYTE_RATIO = 0.3;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// windows-1252 0x80..0x9F (0 = undefined in the code page: such a byte means "not windows-1252").
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function validUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Detects the encoding: a BOM (UTF-8, UTF-16LE, UTF-16BE) wins; otherwise valid UTF-8 is `ascii`
 * when every byte is below 0x80 and `utf-8` otherwise; bytes that are not UTF-8 but are defined in
 * windows-1252 (no NUL, mostly ASCII) are `windows-1252`; anything else is `unknown`. A detached
 * Uint8Array (its buffer transferred) is INVALID_PARAMS: it would read as empty.
 */
export function detectEncoding(bytes: Uint8Array): EncodingDetection {
  if (!(bytes instanceof Uint8Array)) throw invalidParams('bytes', 'must be a Uint8Array.');
  expectLive(bytes, 'bytes');
  return detect(bytes).detection;
}

/** The encoding named by a byte-order mark at the start of `bytes`, if there is one. */
export function bomEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * {@link detectEncoding}'s decision plus, when it already decoded the bytes as UTF-8, the text, so
 * the content gate decodes once. Native scans first (`indexOf` for NUL, a fatal UTF-8 decode whose
 * length tells ASCII from UTF-8); a byte loop only for the rare text that is not UTF-8.
 */
function detect(bytes: Uint8Array): { detection: EncodingDetection; text?: string } {
  const bom = bomEncoding(bytes);
  if (bom === 'utf-8') {
    const text = validUtf8(bytes.subarray(3));
    return text === undefined ? { detection: { encoding: 'unknown', bom: true } } : { detection: { encoding: 'utf-8', bom: true }, text };
  }
  if (bom !== undefined) return { detection: { encoding: bytes.length % 2 === 0 ? bom : 'unknown', bom: true } };
  if (bytes.indexOf(0) !== -1) return { detection: { encoding: 'unknown', bom: false } };
  const text = validUtf8(bytes);
  // Every UTF-8 sequence of two or more bytes decodes to fewer UTF-16 units than bytes, so equal
  // lengths mean every byte was ASCII.
  if (text !== undefined) return { detection: { encoding: text.length === bytes.length ? 'ascii' : 'utf-8', bom: false }, text };
  let high = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) high++;
  if (high / bytes.length > MAX_HIGH_BYTE_RATIO) return { detection: { encoding: 'unknown', bom: false } };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x80 && b <= 0x9f && CP1252_HIGH[b - 0x80] === 0) return { detection: { encoding: 'unknown', bom: false } };
  }
  return { detection: { encoding: 'windows-1252', bom: false } };
}

/**
 * Decodes bytes in a detected encoding (the BOM, if any, is dropped). `bytes` must be a Uint8Array
 * and `detection` an object like {@link detectEncoding}'s result (INVALID_PARAMS otherwise).
 */
export function decodeText(bytes: Uint8Array, detection: EncodingDetection): string {
  expectBytes(bytes, 'bytes');
  expectObject(detection, 'detection');
  const body = detection.bom ? bytes.subarray(detection.encoding === 'utf-8' ? 3 : 2) : bytes;
  switch (detection.encoding) {
    case 'ascii':
    case 'utf-8': {
      const text = validUtf8(body);
      if (text === undefined) throw invalidParams('bytes', 'are not valid UTF-8.');
      return text;
    }
    case 'utf-16le':
    case 'utf-16be': {
      const le = detection.encoding === 'utf-16le';
      const parts: string[] = [];
      const CHUNK = 8192;
      for (let i = 0; i < body.length; i += CHUNK * 2) {
        const units: number[] = [];
        for (let j = i; j < Math.min(body.length, i + CHUNK * 2); j += 2) units.push(le ? body[j]! | (body[j + 1]! << 8) : (body[j]! << 8) | body[j + 1]!);
        parts.push(String.fromCharCode(...units));
      }
      return parts.join('');
    }
    case 'windows-1252': {
      let out = '';
      for (let i = 0; i < body.length; i++) {
        const b = body[i]!;
        out += String.fromCharCode(b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b);
      }
      return out;
    }
    default:
      throw invalidParams('bytes', 'have an unknown encoding and cannot be decoded.');
  }
}

// Control characters other than tab, newline, VT, FF, CR and ESC; C1 controls; U+FFFD.
const CONTROL = /[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]/g;

/** True when more than `MAX_CONTROL_RATIO` of the characters are control characters (NUL: always). */
function tooManyControls(text: string): boolean {
  if (text.length === 0) return false;
  if (text.includes('\0')) return true;
  const limit = MAX_CONTROL_RATIO * text.length;
  let n = 0;
  CONTROL.lastIndex = 0;
  // The native regex scan skips clean text quickly; stop as soon as the limit is passed.
  while (CONTROL.exec(text) !== null) if (++n > limit) return true;
  return false;
}

/**
 * The content gate: `too_large` past `maxBytes`; `binary` for NUL bytes, an unknown encoding or
 * too many control characters (when unsure it says binary: spec 001 fails closed); otherwise the
 * decoded text with its encoding. `bytes` that is not a Uint8Array, or is a detached one (its
 * buffer transferred), is INVALID_PARAMS.
 */
export function checkContent(bytes: Uint8Array, options: ContentGateOptions = {}): ContentDecision {
  expectOptions(options);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 0) throw invalidParams('options.maxBytes', 'must be a non-negative integer.');
  if (!(bytes instanceof Uint8Array)) throw invalidParams('bytes', 'must be a Uint8Array.');
  // A detached view reads as empty, which would pass as an empty text file.
  expectLive(bytes, 'bytes');
  if (bytes.length > maxBytes) return { allowed: false, reason: 'too_large', encoding: 'unknown', detail: `${bytes.length} bytes is more than the ${maxBytes}-byte limit` };
  const { detection, text: decoded } = detect(bytes);
  if (detection.encoding === 'unknown') return { allowed: false, reason: 'binary', encoding: 'unknown', detail: UNKNOWN_ENCODING_DETAIL };
  const text = decoded ?? decodeText(bytes, detection);
  if (tooManyControls(text)) return { allowed: false, reason: 'binary', encoding: detection.encoding, detail: CONTROLS_DETAIL };
  return { allowed: true, encoding: detection.encoding, bom: detection.bom, text };
}

/** True when the gate would treat the bytes as binary. */
export function isBinary(bytes: Uint8Array): boolean {
  const d = checkContent(bytes, { maxBytes: Number.MAX_SAFE_INTEGER });
  return !d.allowed && d.reason === 'binary';
}
