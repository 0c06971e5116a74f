// The builder's gates wired to ctxgate's own modules: the path jail and deny rules, the content
// gate, the WebAssembly secret scanner, and the estimator (or exact counts).
import { ESTIMATOR_ID, estimateBlockTokens } from '../core/tokens.ts';
import { createPathGate, DEFAULT_PATH_RULES_VERSION, normalizeProjectPath } from '../secrets/paths.ts';
import { FILTERS_VERSION } from '../secrets/filters.ts';
import { redactSecrets } from '../secrets/redact.ts';
import { RULESET_VERSION } from '../secrets/rules.generated.ts';
import { findSecrets } from '../secrets/scan.ts';
import { estimator } from '../tokens/estimator.ts';
import { exactCounter } from '../tokens/exact.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { gateContent } from './content-gate.ts';
import type { BuilderGates } from './gates.ts';
import type { BuildContextInput } from './types.ts';

/** The path half of the gates: jail and deny rules only (cheap; used on the caller's side too). */
export function createPathGates(sandbox: BuildContextInput['sandbox'] = {}): Pick<BuilderGates, 'normalizePath' | 'isDenied'> {
  const gate = createPathGate({ deny: sandbox?.deny ?? [], allow: sandbox?.allow ?? [] });
  return {
    normalizePath(path) {
      const n = normalizeProjectPath(path);
      return n.ok ? { ok: true, path: n.path } : { ok: false, reason: 'outside_sandbox', detail: n.detail };
    },
    isDenied(path) {
      const d = gate.check(path);
      return d.allowed || d.reason !== 'deny_rule' ? { denied: false } : { denied: true, rule: d.rule!, detail: d.detail };
    },
  };
}

/** The gates indexing needs: paths and content, no scanning or counting. */
export function createIndexGates(sandbox: BuildContextInput['sandbox'] = {}): Pick<BuilderGates, 'normalizePath' | 'isDenied' | 'classifyContent'> {
  return { ...createPathGates(sandbox), classifyContent };
}

// Size limits are the builder's (maxFileBytes); the gate only decides text or not.
function decodeContent(bytes: Uint8Array): ReturnType<BuilderGates['decodeContent']> {
  const d = gateContent(bytes, true);
  return d.allowed ? { binary: false, encoding: d.encoding, bom: d.bom, text: d.text!, lineCount: d.lineCount } : { binary: true, encoding: d.encoding, detail: d.detail };
}

function classifyContent(bytes: Uint8Array): ReturnType<BuilderGates['classifyContent']> {
  const d = gateContent(bytes, false);
  return d.allowed ? { binary: false, encoding: d.encoding, lineCount: d.lineCount } : { binary: true, encoding: d.encoding, detail: d.detail };
}

/** All gates for one build. Async only because exact counting loads its ranks first. */
export async function createBuilderGates(input: Pick<BuildContextInput, 'sandbox' | 'tokenizer'>): Promise<BuilderGates> {
  const encoding = input.tokenizer?.encoding ?? 'o200k_base';
  const exact = input.tokenizer?.mode === 'exact';
  const count: TokenCounter = exact ? await exactCounter({ encoding }) : estimator({ encoding });
  return {
    ...createPathGates(input.sandbox),
    decodeContent,
    classifyContent,
    scanSecrets: (text, utf8, path) => findSecrets(text, path === undefined ? {} : { path }, utf8).map(({ ruleId, confidence, line, column }) => ({ ruleId, confidence, line, column })),
    redactSecrets(text, path) {
      const r = redactSecrets(text, path === undefined ? {} : { path });
      return { text: r.text, redactions: r.redactions.map(({ ruleId, placeholder, line, column, confidence }) => ({ ruleId, placeholder, line, column, confidence })) };
    },
    countTokens: count,
    countBlockTokens: exact ? (title, content) => count(`${title}\n${content}`) : (title, content, utf8) => estimateBlockTokens(title, content, { encoding }, utf8),
    versions: {
      tokenizer: exact ? `exact:${encoding} (js-tiktoken)` : `${ESTIMATOR_ID}:${encoding}`,
      secretRules: `${RULESET_VERSION}/filters-${FILTERS_VERSION}`,
      pathRules: DEFAULT_PATH_RULES_VERSION,
    },
  };
}
