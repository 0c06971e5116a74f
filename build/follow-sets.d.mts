/** See follow-sets.mjs. */
export function mergeFollowSets(sets: readonly (readonly number[])[], max: number, keep: readonly number[]): { sets: number[][]; numbers: number[] };
