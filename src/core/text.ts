import { withCore } from './core.ts';

/** What {@link textFacts} learns about bytes in one pass in the core, without decoding them. */
export type TextFacts =
  | { readonly status: 'nul' }
  | { readonly status: 'malformed' }
  | {
      readonly status: 'utf-8';
      /** Every byte is below 0x80. */
      readonly ascii: boolean;
      /** Length of the decoded string in UTF-16 code units. */
      readonly units: number;
      /** Code points the content gate counts as control characters (see assembly/text.ts). */
      readonly controls: number;
      /** Line feeds. */
      readonly newlines: number;
    };

const NUL: TextFacts = { status: 'nul' };
const MALFORMED: TextFacts = { status: 'malformed' };

/**
 * Classifies bytes for the content gate in the core: NUL, malformed UTF-8, or well-formed with its
 * UTF-16 length, control characters and newlines. Synchronous: needs the core loaded.
 */
export function textFacts(bytes: Uint8Array): TextFacts {
  return withCore((core) => {
    const ptr = core.writeBytes(bytes);
    const status = core.raw.textFacts(ptr, bytes.byteLength);
    if (status === 2) return NUL;
    if (status === 1) return MALFORMED;
    const w = new Uint32Array(core.readOutput().buffer);
    return { status: 'utf-8', units: w[1]!, controls: w[2]!, newlines: w[3]!, ascii: w[4] === 0 };
  });
}
