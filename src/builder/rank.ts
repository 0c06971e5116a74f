// Selection step 2 (spec 001): the deterministic ranking score and its four tie-breakers.
import { compareUtf8 } from '../core/sort.ts';
import type { Candidate } from './candidates.ts';

/** A candidate with its score. */
export interface Ranked extends Candidate {
  score: number;
  penalties: { size: number; distance: number; duplicate: number };
}

/** `-min(30, floor(byte_size / 200_000))`. */
export function sizePenalty(byteSize: number): number {
  return Math.min(30, Math.floor(byteSize / 200_000));
}

/** `-10 * (hops - 1)` for graph hops above one. */
export function distancePenalty(hops: number): number {
  return hops > 1 ? 10 * (hops - 1) : 0;
}

/** Duplicate signal: -5 when another, better-ranked block already carries the same content. */
export const DUPLICATE_PENALTY = 5;

/** The spec's order: higher score, lower hops, smaller byte size, then path bytewise. */
export function compareRanked(a: Ranked, b: Ranked): number {
  return b.score - a.score || a.hops - b.hops || a.file.byteSize - b.file.byteSize || compareUtf8(a.path, b.path);
}

/**
 * Scores and orders candidates. `hashOf` gives the content hash used for the duplicate signal
 * (after the filesystem read, so a stale index cannot hide a duplicate).
 */
export function rankCandidates(candidates: readonly Candidate[], hashOf: (c: Candidate) => string): Ranked[] {
  const scored: Ranked[] = candidates.map((c) => {
    const size = sizePenalty(c.file.byteSize);
    const distance = distancePenalty(c.hops);
    return { ...c, score: c.base - size - distance, penalties: { size, distance, duplicate: 0 } };
  });
  scored.sort(compareRanked);
  // Walk in rank order; a later candidate whose content an earlier one already carries is penalised.
  const seen = new Set<string>();
  let penalised = false;
  for (const r of scored) {
    const h = hashOf(r);
    if (seen.has(h)) {
      r.penalties.duplicate = DUPLICATE_PENALTY;
      r.score -= DUPLICATE_PENALTY;
      penalised = true;
    }
    seen.add(h);
  }
  // Only a penalty can change the order (the sort is stable and total).
  return penalised ? scored.sort(compareRanked) : scored;
}
