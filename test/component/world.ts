// The JavaScript shape of the `ctxgate:core/ctxgate` world (wit/ctxgate.wit) as jco transpiles it:
// kebab-case names become camelCase, `result` errors are thrown as a ComponentError whose `payload`
// is the err value. Written out here so the tests type-check before the first build; the Node suite
// checks these names against the generated types in dist/component/types/.

/** A block as `sort-blocks` takes it. */
export interface ComponentBlockKey {
  priority: number;
  blockTypeRank: number;
  key: string;
}

/** How sure a secret match is. */
export type ComponentConfidence = 'high' | 'medium';

/** A `secret-finding` record. */
export interface ComponentSecretFinding {
  ruleIndex: number;
  ruleId: string;
  confidence: ComponentConfidence;
  start: number;
  end: number;
}

/** A `secret-rule` record. */
export interface ComponentSecretRule {
  id: string;
  description: string;
  confidence: ComponentConfidence;
}

/** The `token-encoding` enum. */
export type ComponentTokenEncoding = 'o200k-base' | 'cl100k-base';

/** The world's exports. */
export interface CtxgateComponent {
  sha256(data: Uint8Array): Uint8Array;
  sha256Hex(data: Uint8Array): string;
  sha256Batch(items: Uint8Array[]): Uint8Array[];
  crc32(data: Uint8Array, seed: number): number;
  utf8Check(data: Uint8Array): number;
  sortBlocks(items: ComponentBlockKey[]): Uint32Array;
  scanSecrets(data: Uint8Array): ComponentSecretFinding[];
  secretRules(): ComponentSecretRule[];
  estimateTokens(text: string, encoding: ComponentTokenEncoding): number;
  estimatorVersion(): number;
}

/** Every export of the world, in WIT order (camelCase). */
export const WORLD_EXPORTS = [
  'sha256',
  'sha256Hex',
  'sha256Batch',
  'crc32',
  'utf8Check',
  'sortBlocks',
  'scanSecrets',
  'secretRules',
  'estimateTokens',
  'estimatorVersion',
] as const satisfies readonly (keyof CtxgateComponent)[];
