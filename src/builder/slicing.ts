// Slicing levels (spec 001): only where the index provides exact boundaries; never guessed.
import type { Candidate } from './candidates.ts';
import type { SlicingLevel } from './types.ts';

/** The slices of a file that the index makes possible, in the order fitting tries them. */
export function availableSlices(c: Candidate, text: string, lineCount: number, indexIsCurrent: boolean): Map<SlicingLevel, string> {
  const out = new Map<SlicingLevel, string>([['FULL_FILE', text]]);
  // Boundaries from a stale index describe other bytes: slicing with them would be guessing.
  if (!indexIsCurrent) return out;
  if (c.target && c.symbols.length) {
    const region = targetRegion(text, lineCount, c);
    if (region !== undefined) out.set('TARGET_REGION_ONLY', region);
  }
  if (c.file.signatures !== undefined && c.file.signatures.length) out.set('SIGNATURES_ONLY', c.file.signatures);
  if (c.file.summary !== undefined && c.file.summary.length) out.set('SUMMARY_ONLY', c.file.summary);
  return out;
}

/** Lines of the target symbols (1-based, inclusive ranges, merged), or undefined if any range is invalid. */
function targetRegion(text: string, lineCount: number, c: Candidate): string | undefined {
  const ranges = c.symbols
    .map((s) => [s.startLine, s.endLine] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [start, end] of ranges) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start || end > lineCount) return undefined;
  }
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const lines = text.split('\n');
  return merged.map(([start, end]) => `// lines ${start}-${end}\n${lines.slice(start - 1, end).join('\n')}`).join('\n// …\n');
}

/** Levels a file block may be reduced to, in order, after FULL_FILE. */
export const REDUCTION_ORDER: readonly SlicingLevel[] = ['TARGET_REGION_ONLY', 'SIGNATURES_ONLY', 'SUMMARY_ONLY'];
