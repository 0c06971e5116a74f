/** Deterministic pseudo-random characters (xorshift32). */
export function fakeChars(alphabet: string, n: number, seed: number): string;
/** The sample's planted fake API key. */
export function plantedSecret(): string;
/** The fake database password in the sample's `.env`. */
export function plantedDbPassword(): string;
