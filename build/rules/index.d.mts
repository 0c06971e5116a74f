/** A step of a rule's byte pattern (see build/rules/dsl.mjs). */
export type RuleStep = string | [string, number, number?] | { lit: string; ci?: boolean } | { until: string; min: number; max: number };

/** One secret rule, as data. */
export interface RuleDefinition {
  id: string;
  description: string;
  confidence: 'high' | 'medium';
  keywords: string[];
  ci?: boolean;
  back?: [string, number, number];
  before?: string | null;
  after?: string | null;
  steps: RuleStep[];
  secret?: 'last' | [number, number];
  entropy?: number;
  examples: { pos: { text: string; secret: string }[]; neg: string[] };
}

/** Every rule, in priority order. */
export declare const rules: RuleDefinition[];
export default rules;
