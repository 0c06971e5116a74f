// The Context Builder (spec 001) proper: candidates -> hard exclusions -> ranking -> blocks by
// priority -> fit to budget -> ordering -> reports and fingerprints. Synchronous and pure given its
// inputs: it runs inside the worker on bytes that arrived in one transfer, and calls the core
// (hashing, scanning, estimation, sorting) directly.
import { ContextTooLargeError, CtxgateError, SecretRiskError, invalidParams } from '../errors.ts';
import { sha256ManySync } from '../core/sha256.ts';
import { sortBlockKeysSync } from '../core/sort.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { fingerprintSync } from '../fingerprint/fingerprint.ts';
import { refuseLoneSurrogate } from '../encoding/utf16.ts';
import { utf8ByteLength } from '../encoding/utf8-size.ts';
import { decideBudget } from '../tokens/limits.ts';
import { establishCandidates, type Candidate } from './candidates.ts';
import { countLines } from './lines.ts';
import type { BuilderGates } from './gates.ts';
import { derivedUuid, derivedUuids } from './ids.ts';
import { verifiedProjectIndexFingerprint } from './project-index.ts';
import { rankCandidates, type Ranked } from './rank.ts';
import { REDUCTION_ORDER, availableSlices } from './slicing.ts';
import { defaultSystemRules } from './system-rules.ts';
import type {
  BlockType,
  BudgetReport,
  BuildContextInput,
  BuildContextResult,
  ContextBlock,
  Encoding,
  ExcludedCandidate,
  ExclusionReason,
  ExplainEntry,
  IndexedFile,
  Priority,
  Redaction,
  SlicingLevel,
} from './types.ts';

/** Identifies the selection algorithm; part of the config fingerprint. */
export const BUILDER_VERSION = 'ctxgate-builder/1';

/** File contents as read at build time: the source of truth over the index. */
export type FileContents = ReadonlyMap<string, Uint8Array | string>;

/** One slicing level of a block: its safe content, token cost and, when known, SHA-256 of its UTF-8. */
interface Variant {
  content: string;
  tokens: number;
  /** Set when the content is a file's text whose UTF-8 is exactly the bytes already hashed. */
  contentHash?: string;
}

/** A block being assembled, at its current slicing level. Exported for {@link fitToBudget}'s tests. */
export interface Work {
  blockType: BlockType;
  priority: Priority;
  title: string;
  key: string;
  /** Safe (redacted) content per available level; FULL_FILE for non-file blocks. */
  variants: Map<SlicingLevel, Variant>;
  level: SlicingLevel;
  ranked?: Ranked;
  meta: { path: string | null; symbol: string | null; hash: string | null; encoding: Encoding; byteSize: number; source: ContextBlock['meta']['source'] };
}

/** Assembles the bundle, or throws one of the contract's refusals. */
export function assembleContext(input: BuildContextInput, contents: FileContents, gates: BuilderGates): BuildContextResult {
  const secretPolicy = { highConfidence: input.secrets?.highConfidence ?? 'redact', mediumConfidence: input.secrets?.mediumConfidence ?? 'refuse' };
  const redactions: Redaction[] = [];
  const excluded: ExcludedCandidate[] = [];
  const explain: ExplainEntry[] = [];
  const notes: string[] = [];
  const maxFileBytes = input.maxFileBytes ?? 1024 * 1024;

  // A caller's text with secrets masked: what a refusal names (a target as typed), a path outside
  // the project, and every text that is published or fingerprinted. A token pasted into the wrong
  // field must not come back in an error that gets logged.
  const mask = (text: string): string => gates.redactSecrets(text).text;
  // A path outside the project is whatever string the caller's index or edges held (it names no
  // project file): it is published masked, as every other caller text is, and once.
  const outside = new Set<string>();
  const exclude = (path: string, reason: ExclusionReason, detail: string, c?: { hops: number; byteSize: number; priority?: Priority }): void => {
    if (reason === 'outside_sandbox') {
      path = mask(path);
      if (outside.has(path)) return;
      outside.add(path);
    }
    excluded.push({ path, reason });
    const type: Redaction['type'] = reason === 'token_budget' ? 'block_removed' : 'path_excluded';
    const why: Redaction['reason'] =
      reason === 'secret_risk' ? 'secret' : reason === 'deny_rule' || reason === 'outside_sandbox' ? 'deny_rule' : reason === 'binary' ? 'binary' : reason === 'token_budget' ? 'budget' : 'policy';
    redactions.push({ type, target: path, reason: why, details: detail });
    explain.push({
      path,
      outcome: reason === 'token_budget' ? 'dropped' : 'excluded',
      reason,
      priority: c?.priority ?? null,
      score: null,
      hops: c?.hops ?? 0,
      byteSize: c?.byteSize ?? 0,
      tokens: null,
      slicing: null,
      detail,
    });
  };

  // ---- The index: normalise every path into the jail, dedupe by normalised path.
  const files = new Map<string, IndexedFile>();
  const sortedIndex = [...input.projectIndex.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of sortedIndex) {
    const n = gates.normalizePath(f.path);
    if (!n.ok) {
      exclude(f.path, 'outside_sandbox', n.detail, { hops: 0, byteSize: f.byteSize });
      continue;
    }
    if (files.has(n.path)) {
      exclude(n.path, 'duplicate', `another index entry already names ${n.path}`, { hops: 0, byteSize: f.byteSize });
      continue;
    }
    files.set(n.path, { ...f, path: n.path });
  }
  const normalize = (p: string): string => {
    const n = gates.normalizePath(p);
    if (n.ok) return n.path;
    const shown = mask(p);
    throw new CtxgateError('OUTSIDE_SANDBOX', `${JSON.stringify(shown)} is outside the project root (${n.detail}); name a path inside the project.`, { details: { path: shown } });
  };

  // ---- Step 0: candidates.
  const { candidates, targetFiles, targetSymbols, unresolved } = establishCandidates(input, files, normalize, mask);
  if (unresolved.length) {
    const u = unresolved[0]!;
    const shown = mask(u.path);
    throw invalidParams(u.field, `${JSON.stringify(shown)} is not in the project index; index it or correct the path`, { path: shown });
  }
  const hasTarget = candidates.some((c) => c.target);
  if (input.purpose !== 'intent' && !hasTarget && (input.planStep?.targetFiles?.length || input.planStep?.targetSymbols?.length)) {
    throw invalidParams('planStep', 'no target could be resolved');
  }
  // Spec 001, Inputs: the plan step is required for diff generation, and a diff is of something:
  // without a target the model would be asked for a change with nothing to change.
  if (input.purpose === 'diff') {
    if (!input.planStep) throw invalidParams('planStep', 'a diff bundle requires a plan step; pass the step being implemented (planStep with targetFiles or targetSymbols).');
    if (!hasTarget) {
      throw invalidParams('planStep', 'a diff bundle requires at least one target; name the files to change in planStep.targetFiles or the symbols in planStep.targetSymbols.');
    }
  }

  // ---- Step 1: hard exclusions (fail closed), reading every candidate from the filesystem.
  // `textHash`: SHA-256 of the text's UTF-8 when that is exactly the bytes hashed (text given as a
  // string, or bytes that decoded as UTF-8 without a BOM, which round-trip byte for byte), so a
  // block carrying the whole text reuses the hash instead of hashing the file a second time.
  const prepared = new Map<string, { text: string; utf8: Uint8Array | null; hash: string; textHash: string | null; encoding: Encoding; byteSize: number; lineCount: number; current: boolean; clean: boolean }>();
  const kept: Candidate[] = [];
  const intentOnly = input.purpose === 'intent';
  // Two passes so that every candidate's bytes are hashed in one batched call into the core: the
  // first applies the checks that need no content, the second decodes and scans. A refusal the
  // first pass meets is held until the second has handled every earlier path, so which refusal
  // wins is the same as in a single pass in path order.
  const reads: { c: Candidate; raw: Uint8Array | string; info: { hops: number; byteSize: number; priority: Priority } }[] = [];
  let held: Error | undefined;
  for (const c of [...candidates].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const info = { hops: c.hops, byteSize: c.file.byteSize, priority: c.priority };
    if (intentOnly) continue; // intent extraction sees project metadata only
    const denied = gates.isDenied(c.path);
    if (denied.denied) {
      if (c.target) {
        held = new SecretRiskError(`Target ${c.path} is excluded by the ${denied.detail}; it cannot be sent. Move secrets out of it, or re-include it with an allow rule.`, {
          details: { path: c.path, rule: denied.rule },
        });
        break;
      }
      exclude(c.path, 'deny_rule', denied.detail, info);
      continue;
    }
    if (c.file.excluded) {
      if (c.target) {
        held = invalidParams('planStep.targetFiles', `${c.path} was excluded by the indexer (${c.file.excluded})`, { path: c.path });
        break;
      }
      // A deny rule of the indexer's that this build's gates do not have (the sandbox was given
      // to indexProject only): the index keeps the reason, not the rule, so say where it came from.
      const why = c.file.excluded === 'deny_rule' ? 'excluded by the indexer: a sandbox deny rule given to indexProject (give buildContext the same sandbox to have the rule named)' : 'excluded by the indexer';
      exclude(c.path, c.file.excluded, why, info);
      continue;
    }
    if (!c.target && c.file.byteSize > maxFileBytes) {
      exclude(c.path, 'too_large', `${c.file.byteSize} bytes > maxFileBytes ${maxFileBytes}`, info);
      continue;
    }
    const raw = contents.get(c.path);
    if (raw === undefined) {
      held = new CtxgateError('READ_FAILED', `Could not read ${c.path}; the bundle cannot be built deterministically without it. Provide its content or remove it from the index.`, {
        details: { path: c.path },
      });
      break;
    }
    reads.push({ c, raw, info });
  }
  const readHashes = sha256ManySync(reads.map((r) => r.raw));
  for (let k = 0; k < reads.length; k++) {
    const { c, raw, info } = reads[k]!;
    const bytesHash = readHashes[k]!;
    let text: string;
    let encoding: Encoding;
    let byteSize: number;
    let roundTrips: boolean;
    let lineCount: number;
    if (typeof raw === 'string') {
      refuseLoneSurrogate(raw, `Cannot use the content of ${c.path}`, { path: c.path });
      roundTrips = true;
      text = raw;
      encoding = 'utf-8';
      byteSize = utf8ByteLength(raw);
      lineCount = countLines(raw);
    } else {
      const decoded = gates.decodeContent(raw);
      byteSize = raw.byteLength;
      encoding = decoded.encoding;
      if (decoded.binary) {
        // Binary, or an encoding we cannot name: fail closed (spec 001 edge cases 3 and 4).
        if (c.target) {
          throw new CtxgateError('UNSUPPORTED_ENCODING', `Target ${c.path} is binary or has an unsupported encoding (${decoded.detail}); only text can be sent, convert it to UTF-8.`, {
            details: { path: c.path, encoding },
          });
        }
        exclude(c.path, 'binary', decoded.encoding === 'unknown' ? `unsupported encoding, treated as binary (${decoded.detail})` : decoded.detail, info);
        continue;
      }
      text = decoded.text;
      lineCount = decoded.lineCount;
      roundTrips = (encoding === 'utf-8' || encoding === 'ascii') && !decoded.bom;
    }
    const current = bytesHash === c.file.hash;
    if (!current) notes.push(`index stale for ${c.path}: hash updated from the filesystem read (${c.file.hash.slice(0, 12)}… → ${bytesHash.slice(0, 12)}…)`);
    // Secrets: decide on the whole file before anything is built from it.
    // A file that decoded as UTF-8 without a BOM is its own UTF-8: scanned as read.
    const utf8 = roundTrips && typeof raw !== 'string' ? raw : null;
    const findings = gates.scanSecrets(text, utf8 ?? undefined, c.path);
    const high = findings.filter((f) => f.confidence === 'high');
    const medium = findings.filter((f) => f.confidence === 'medium');
    const where = (list: typeof findings): string => list.map((f) => `${f.ruleId} at ${f.line}:${f.column}`).join(', ');
    if ((high.length && secretPolicy.highConfidence === 'exclude') || (medium.length && secretPolicy.mediumConfidence === 'refuse')) {
      const list = high.length && secretPolicy.highConfidence === 'exclude' ? high : medium;
      if (c.target) {
        throw new SecretRiskError(
          `Target ${c.path} contains ${list.length} likely secret(s) (${where(list)}) that policy does not allow to redact; move the secrets out of the project or add a deny rule.`,
          { details: { path: c.path, source: 'file', findings: list.map(({ ruleId, line, column, confidence }) => ({ ruleId, line, column, confidence })) } },
        );
      }
      exclude(c.path, 'secret_risk', `${list.length} finding(s): ${where(list)}`, info);
      continue;
    }
    prepared.set(c.path, { text, utf8, hash: bytesHash, textHash: roundTrips ? bytesHash : null, encoding, byteSize, lineCount, current, clean: findings.length === 0 });
    kept.push(c);
  }
  if (held !== undefined) throw held;

  // ---- Step 2: rank.
  const ranked = rankCandidates(kept, (c) => prepared.get(c.path)!.hash);
  const rankOf = new Map(ranked.map((r, i) => [r.path, i]));

  // Redacts text with the policy, proves the result clean, and records every action. `path`: the
  // file the text is from, when it is a file's own text (its extension says whether it is code);
  // `file`: whether the text is a file's (its content, or the index's summary of it) rather than
  // the request's own (the task, a constraint): a refusal says which, for the person to act on.
  const safe = (text: string, target: string, path?: string, file = path !== undefined): string => {
    // Checked here, where every text but a clean whole file passes (those were checked when read):
    // a lone surrogate would be hashed as U+FFFD, so distinct texts would share ids and fingerprints.
    refuseLoneSurrogate(text, `Cannot use ${target}`, { target });
    const findings = gates.scanSecrets(text, undefined, path);
    if (!findings.length) return text;
    const medium = findings.filter((f) => f.confidence === 'medium');
    if (medium.length && secretPolicy.mediumConfidence === 'refuse') {
      throw new SecretRiskError(`${target} contains ${medium.length} possible secret(s) (${medium.map((f) => `${f.ruleId} at ${f.line}:${f.column}`).join(', ')}); remove them or allow redaction.`, {
        details: { target, source: file ? 'file' : 'request', findings: medium.map(({ ruleId, line, column, confidence }) => ({ ruleId, line, column, confidence })) },
      });
    }
    const out = gates.redactSecrets(text, path);
    // INV-CONTEXT-4: if removal cannot be proven, refuse.
    if (gates.scanSecrets(out.text, undefined, path).length) {
      throw new SecretRiskError(`Secrets in ${target} could not be removed with certainty; the bundle was refused.`, { details: { target } });
    }
    for (const r of out.redactions) {
      redactions.push({ type: 'pattern_redacted', target, reason: 'secret', details: `${r.ruleId} (${r.confidence}) at ${r.line}:${r.column} → ${r.placeholder}` });
    }
    return out.text;
  };
  const tokensOf = (title: string, content: string, utf8?: Uint8Array): number => gates.countBlockTokens(title, content, utf8).tokens;
  const single = (content: string, title: string) => new Map<SlicingLevel, Variant>([['FULL_FILE', { content, tokens: tokensOf(title, content) }]]);

  // ---- Step 3: blocks by priority.
  const works: Work[] = [];
  const textMeta = (source: ContextBlock['meta']['source']) => ({ path: null, symbol: null, hash: null, encoding: 'utf-8' as Encoding, byteSize: 0, source });
  const systemText = safe(input.systemRules ?? defaultSystemRules(input.purpose), 'system rules');
  works.push({ blockType: 'system', priority: 'P0', title: 'system rules', key: 'system rules', variants: single(systemText, 'system rules'), level: 'FULL_FILE', meta: textMeta('system') });
  // Each constraint is scanned as the caller wrote it, before JSON escaping can hide a pattern
  // (`\t` for a tab, `\"` for a quote): the scanner is written for raw text, as in lastError or
  // the task. The serialised block is then scanned again, for anything only the JSON form shows.
  const constraintsText = safe(canonicalize(mapConstraints(input.constraints, safe)), 'constraints');
  works.push({ blockType: 'constraints', priority: 'P0', title: 'constraints', key: 'constraints', variants: single(constraintsText, 'constraints'), level: 'FULL_FILE', meta: textMeta('user') });
  const task = [input.intent ? `intent ${input.intent.id}: ${input.intent.text}` : null, input.planStep ? `plan step ${input.planStep.id}${input.planStep.description ? `: ${input.planStep.description}` : ''}` : null]
    .filter((x): x is string => x !== null)
    .join('\n');
  if (task) works.push({ blockType: 'diff_hint', priority: 'P0', title: 'task', key: 'task', variants: single(safe(task, 'task'), 'task'), level: 'FULL_FILE', meta: textMeta('user') });
  if (intentOnly) {
    // Never-send and credential paths must not reach the model even by name (spec 001, Never-Send
    // Paths): they are left out of the listing and its counts. The listing is text that would be
    // sent, so it is scanned like any other (a file name can carry a token).
    const listed = [...files.values()].filter((f) => f.excluded !== 'deny_rule' && f.excluded !== 'secret_risk' && !gates.isDenied(f.path).denied);
    const meta = safe(projectMeta(listed), 'project');
    works.push({ blockType: 'project_meta', priority: 'P0', title: 'project', key: 'project', variants: single(meta, 'project'), level: 'FULL_FILE', meta: textMeta('index') });
  }
  if (input.lastError) {
    const e = input.lastError;
    const title = 'last error';
    const content = safe(`${e.path ? `${e.path}${e.line ? `:${e.line}` : ''}: ` : ''}${e.message}`, 'last error');
    works.push({ blockType: 'error_context', priority: 'P1', title, key: title, variants: single(content, title), level: 'FULL_FILE', meta: { ...textMeta('user'), path: e.path ?? null } });
  }
  for (const r of ranked) {
    const p = prepared.get(r.path)!;
    const variants = new Map<SlicingLevel, Variant>();
    for (const [level, raw] of availableSlices(r, p.text, p.lineCount, p.current)) {
      // The whole file was scanned in step 1; a clean file's full text needs no second pass.
      // A summary is the caller's prose about the file, not its code: judged as any text.
      const content = level === 'FULL_FILE' && p.clean ? raw : safe(raw, r.path, level === 'SUMMARY_ONLY' ? undefined : r.path, true);
      const variant: Variant = { content, tokens: tokensOf(r.path, content, content === p.text && p.utf8 !== null ? p.utf8 : undefined) };
      if (content === p.text && p.textHash !== null) variant.contentHash = p.textHash;
      variants.set(level, variant);
    }
    works.push({
      blockType: 'file',
      priority: r.priority,
      title: r.path,
      key: r.path,
      variants,
      level: 'FULL_FILE',
      ranked: r,
      meta: { path: r.path, symbol: r.symbols.length ? mask(r.symbols.map((s) => s.name).join(',')) : null, hash: p.hash, encoding: p.encoding, byteSize: p.byteSize, source: p.current ? 'index' : 'filesystem' },
    });
  }

  // ---- Step 4: fit to budget, in the spec's exact order.
  const limitsFor = (estimatedInputTokens: number) =>
    decideBudget({
      estimatedInputTokens,
      maxInputTokens: input.tokenBudget.maxInputTokens,
      responseTokenReserve: input.tokenBudget.responseTokenReserve,
      softLimitThresholdPct: input.tokenBudget.softLimitThresholdPct,
    });
  const limits = limitsFor(0);
  const { live, initialTokens, finalTokens } = fitToBudget(works, limits.hardLimitTokens, (w) => rankOf.get(w.ranked?.path ?? '') ?? -1, {
    drop(w, why) {
      const r = w.ranked!;
      exclude(r.path, 'token_budget', why, { hops: r.hops, byteSize: r.file.byteSize, priority: r.priority });
    },
    slice(w, from, to) {
      redactions.push({ type: 'content_sliced', target: w.title, reason: 'budget', details: `${from} → ${to} (${w.variants.get(from)!.tokens} → ${w.variants.get(to)!.tokens} tokens)` });
    },
  });
  const decision = limitsFor(finalTokens).decision;
  const estimatorNote = `token estimator: ${gates.versions.tokenizer ?? 'unknown'}`;
  notes.unshift(estimatorNote);
  if (initialTokens !== finalTokens) notes.push(`fit to budget: ${initialTokens} → ${finalTokens} estimated tokens`);
  if (decision === 'warn_soft_limit') notes.push(`warning: ${finalTokens} tokens is above the soft limit of ${limits.softLimitTokens} (${input.tokenBudget.softLimitThresholdPct}% of ${limits.hardLimitTokens})`);

  // Fingerprints: the index's, the configuration's, and (below) the bundle's. They and the ids
  // derived from them are published, so the caller's texts go in with secrets masked as in the
  // blocks: no digest is ever taken over a secret's value, which a short secret in an otherwise
  // known text would let anyone guess back (INV-CONTEXT-4). Text with no finding goes in as given.
  const maskedOptional = (text: string | undefined): string | undefined => (text === undefined ? undefined : mask(text));
  const maskedConstraints = mapConstraints(input.constraints, mask);
  const intent = input.intent ? { id: mask(input.intent.id), text: mask(input.intent.text) } : input.intent;
  // Targets as resolved: normalised, each once, sorted. `./src/a.ts`, `src//a.ts` and `src/a.ts`
  // name one file; spelling or order must change neither the manifest nor the fingerprint.
  // A symbol's name is the caller's text (an indexer's, or typed), published and fingerprinted as
  // the other texts are: with secrets masked, as in each block's meta.
  const resolved = { targetFiles: uniqueSorted(targetFiles), targetSymbols: uniqueSorted(targetSymbols.map(mask)) };
  // The fingerprinted plan step carries its targets as resolved (as `selection` does), not as
  // spelled; its id and description are kept as given (masked), since they are the task's text.
  const planStep = input.planStep ? { id: mask(input.planStep.id), description: maskedOptional(input.planStep.description), ...resolved } : input.planStep;
  // Recomputed from the index, and a fingerprint the caller gave must match it: the manifest's
  // reproducibility claim (INV-CONTEXT-2) cannot rest on a value nobody checked. Metadata only.
  const projectFp = verifiedProjectIndexFingerprint(input.projectIndex);
  const configFp = fingerprintSync({
    builder: BUILDER_VERSION,
    gates: gates.versions,
    constraints: maskedConstraints,
    tokenBudget: input.tokenBudget,
    sandbox: input.sandbox ?? null,
    secrets: secretPolicy,
    tokenizer: input.tokenizer ?? { mode: 'estimate' },
    maxHops: input.maxHops ?? 2,
    maxFileBytes,
    systemRules: maskedOptional(input.systemRules) ?? null,
  });
  const correlationId = input.correlationId ?? derivedUuid('correlation', intent?.id ?? '', planStep?.id ?? '', projectFp);

  const budgetReportOf = (bundleId: string, tokens: number, d: typeof decision): BudgetReport => ({
    bundleId,
    estimatedInputTokens: tokens,
    maxInputTokens: input.tokenBudget.maxInputTokens,
    softLimitTokens: limits.softLimitTokens,
    hardLimitTokens: limits.hardLimitTokens,
    reserveOutputTokens: input.tokenBudget.responseTokenReserve,
    decision: d,
    notes: [...notes],
  });

  if (decision === 'refuse_hard_limit') {
    const bundleId = input.bundleId ?? derivedUuid('refused', projectFp, configFp, correlationId);
    const report = budgetReportOf(bundleId, finalTokens, decision);
    report.notes.push('refused: required P0 blocks do not fit the hard limit even after slicing; narrow the scope (choose a file or a symbol) or use a model with a larger context');
    const tokensOfWork = (w: Work): number => w.variants.get(w.level)!.tokens;
    const bySize = [...live].sort((a, b) => tokensOfWork(b) - tokensOfWork(a));
    const largest = bySize.slice(0, 5).map((w) => ({ title: mask(w.title), priority: w.priority, tokens: tokensOfWork(w), slicing: w.ranked ? w.level : null }));
    throw new ContextTooLargeError(
      `The required context needs ${finalTokens} tokens but the hard limit is ${limits.hardLimitTokens} (max input ${input.tokenBudget.maxInputTokens} − reserve ${input.tokenBudget.responseTokenReserve}). ${largestBlockText(bySize[0], mask)}Narrow the scope: target a single file or a symbol, or use a model with a larger context.`,
      { details: { budgetReport: report, largestBlocks: largest } },
    );
  }

  // ---- Ordering (INV-CONTEXT-1) in the core, then the blocks.
  const liveList = [...live];
  const order = sortBlockKeysSync(liveList.map((w) => ({ priority: w.priority, blockType: w.blockType, key: w.key })));
  const blocksNoId = Array.from(order, (i) => {
    const w = liveList[i]!;
    const v = w.variants.get(w.level)!;
    // A whole file's line count is known from step 1.
    const whole = w.ranked ? prepared.get(w.ranked.path) : undefined;
    const lineCount = whole !== undefined && whole.text === v.content ? whole.lineCount : countLines(v.content);
    const meta: ContextBlock['meta'] = { ...w.meta, lineCount, tokens: v.tokens };
    if (w.blockType === 'file') meta.slicing = w.level;
    return { blockType: w.blockType, priority: w.priority, title: w.title, content: v.content, meta, knownHash: v.contentHash };
  });
  // Every block's content hashed in one call into the core; ids and the bundle fingerprint are
  // built from these hashes, so fingerprinting costs the same whatever the content size.
  // Whole, unredacted files already have theirs from step 1 (a test checks they are equal).
  const unhashed = blocksNoId.filter((b) => b.knownHash === undefined);
  const fresh = sha256ManySync(unhashed.map((b) => b.content));
  let nextFresh = 0;
  const contentHashes = blocksNoId.map((b) => b.knownHash ?? fresh[nextFresh++]!);
  const blockIds = derivedUuids(blocksNoId.map((b, i) => ['block', b.blockType, b.priority, b.title, contentHashes[i]!]));
  const blocks: ContextBlock[] = blocksNoId.map(({ knownHash: _, ...b }, i) => ({ blockId: blockIds[i]!, ...b }));

  const includedFiles = liveList
    .filter((w) => w.ranked)
    .map((w) => ({ path: w.ranked!.path, hash: w.meta.hash!, encoding: w.meta.encoding, byteSize: w.meta.byteSize, reason: w.ranked!.reason }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  excluded.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
  const selection = { ...resolved, includedFiles, excludedCandidates: excluded };
  const bundleFingerprint = fingerprintSync({
    purpose: input.purpose,
    model: input.tokenBudget,
    intent,
    planStep: planStep ?? null,
    blocks: blocks.map((b, i) => ({ ...b, content: undefined, contentSha256: contentHashes[i] })),
    selection,
    projectIndexFingerprint: projectFp,
    configFingerprint: configFp,
  });
  const bundleId = input.bundleId ?? derivedUuid('bundle', bundleFingerprint);

  for (const w of liveList) {
    if (!w.ranked) continue;
    const r = w.ranked;
    explain.push({
      path: r.path,
      outcome: w.level === 'FULL_FILE' ? 'included' : 'sliced',
      reason: r.symbols.length ? 'target_symbol' : r.reason,
      priority: r.priority,
      score: r.score,
      hops: r.hops,
      byteSize: w.meta.byteSize,
      tokens: w.variants.get(w.level)!.tokens,
      slicing: w.level,
      detail: `score ${r.base} base − ${r.penalties.size} size − ${r.penalties.distance} distance − ${r.penalties.duplicate} duplicate = ${r.score}`,
    });
  }
  const scoreOf = new Map(ranked.map((r) => [r.path, r.score]));
  for (const e of explain) if (e.outcome === 'dropped') e.score = scoreOf.get(e.path) ?? null;
  explain.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  return {
    bundle: {
      bundleId,
      bundleVersion: 1,
      createdAt: input.createdAt ?? new Date().toISOString(),
      purpose: input.purpose,
      correlationId,
      model: input.tokenBudget,
      blocks,
    },
    manifest: {
      bundleId,
      correlationId,
      purpose: input.purpose,
      selection,
      fingerprints: { projectIndexFingerprint: projectFp, configFingerprint: configFp, bundleFingerprint },
    },
    redactionReport: { bundleId, redactions: redactions.map((r) => ({ ...r })) },
    budgetReport: budgetReportOf(bundleId, finalTokens, decision),
    explain,
  };
}

/** A compact description of the project for intent extraction: counts per top-level folder. */
function projectMeta(files: IndexedFile[]): string {
  const dirs = new Map<string, number>();
  for (const f of files) {
    const top = f.path.includes('/') ? `${f.path.slice(0, f.path.indexOf('/'))}/` : f.path;
    dirs.set(top, (dirs.get(top) ?? 0) + 1);
  }
  const lines = [...dirs.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([d, n]) => (d.endsWith('/') ? `${d} (${n} files)` : d));
  return `${files.length} files\n${lines.join('\n')}`;
}

/**
 * Step 4 of spec 001, Fit-to-Budget, in its exact order: remove every P3 block; remove P2 blocks
 * lowest rank first; slice P1 file blocks to signatures where the index provides them, and
 * exclude the P1 files it gives no smaller slice for (slicing is never guessed: "either include
 * full file or exclude"); slice the target file blocks level by level (last resort). A P1 block
 * once sliced is kept: dropping it after slicing would undo a step the spec orders before target
 * slicing and leave a `content_sliced` entry for a block that is not sent. Whatever is still too
 * large is the caller's to refuse.
 *
 * The total is kept as a running sum, changed by each drop or slice, so fitting costs O(n log n)
 * in the number of blocks (re-adding every block on each drop was quadratic: 32k P1 files took
 * 25 s). `rank`: a file block's position in the ranking (higher is worse), -1 for others.
 */
export function fitToBudget(
  works: readonly Work[],
  hardLimitTokens: number,
  rank: (w: Work) => number,
  on: { drop(w: Work, why: string): void; slice(w: Work, from: SlicingLevel, to: SlicingLevel): void },
): { live: Set<Work>; initialTokens: number; finalTokens: number } {
  const live = new Set(works);
  const cost = (w: Work): number => w.variants.get(w.level)!.tokens;
  let total = 0;
  for (const w of live) total += cost(w);
  const initialTokens = total;
  const fits = (): boolean => total <= hardLimitTokens;
  const drop = (w: Work, why: string): void => {
    live.delete(w);
    total -= cost(w);
    on.drop(w, why);
  };
  const slice = (w: Work, level: SlicingLevel): void => {
    const from = w.level;
    total -= cost(w);
    w.level = level;
    total += cost(w);
    on.slice(w, from, level);
  };
  if (!fits()) {
    const worstFirst = (a: Work, b: Work): number => rank(b) - rank(a);
    const filesOf = (p: Priority): Work[] => [...live].filter((x) => x.priority === p && x.ranked).sort(worstFirst);
    // 1. Remove all P3 blocks.
    for (const w of filesOf('P3')) drop(w, 'P3 removed to fit the budget');
    // 2. Remove P2 blocks in reverse-ranked order.
    for (const w of filesOf('P2')) {
      if (fits()) break;
      drop(w, 'P2 removed to fit the budget (lowest rank first)');
    }
    // 3. Slice P1 file blocks to signatures where the index provides a smaller slice; exclude
    //    those it does not, lowest rank first, since their slicing cannot be guessed.
    const p1 = filesOf('P1');
    for (const w of p1) {
      if (fits()) break;
      const sig = w.variants.get('SIGNATURES_ONLY');
      if (sig !== undefined && sig.tokens < cost(w)) slice(w, 'SIGNATURES_ONLY');
    }
    for (const w of p1) {
      if (fits()) break;
      if (w.level === 'FULL_FILE') drop(w, `P1 removed to fit the budget: the index gives no smaller slice${w.variants.has('SIGNATURES_ONLY') ? '' : ' (no signatures)'}`);
    }
    // 4. Slice the target file blocks (last resort), level by level.
    const targets = filesOf('P0');
    for (const level of REDUCTION_ORDER) {
      for (const w of targets) {
        if (fits()) break;
        const v = w.variants.get(level);
        if (v && v.tokens < cost(w)) slice(w, level);
      }
    }
  }
  return { live, initialTokens, finalTokens: total };
}

/** `constraints` with each text replaced by `f(text, its field)` (`constraints.user[0]`); absent lists stay absent. */
function mapConstraints(constraints: BuildContextInput['constraints'], f: (text: string, field: string) => string): BuildContextInput['constraints'] {
  const out: BuildContextInput['constraints'] = {};
  for (const key of ['system', 'project', 'session', 'user'] as const) {
    const list = constraints[key];
    if (list !== undefined) out[key] = list.map((text, i) => f(text, `constraints.${key}[${i}]`));
  }
  return out;
}

/** Each string once, in code-unit order (as the manifest's other lists). */
function uniqueSorted(list: readonly string[]): string[] {
  return [...new Set(list)].sort();
}

/**
 * The sentence of a ContextTooLarge refusal that names `top`, the largest block left (its title
 * masked as every published text is), and why it is not smaller: fitting has already cut every
 * file to its smallest slice, so one still whole has none the index could give (no symbols' line
 * ranges for a target, no signatures or summary, or an index older than the file), which is what
 * a person can change.
 */
function largestBlockText(top: Work | undefined, mask: (text: string) => string): string {
  if (!top) return '';
  const tokens = top.variants.get(top.level)!.tokens;
  const r = top.ranked;
  const why =
    r === undefined
      ? ''
      : top.level !== 'FULL_FILE'
        ? `, sliced to ${top.level}`
        : top.variants.size > 1
          ? ', whole: its slices are no smaller'
          : r.target && r.symbols.length === 0
            ? ', whole: name a symbol in it (planStep.targetSymbols) to send only its lines, or give the index its signatures or summary'
            : ', whole: the index gives no current line ranges, signatures or summary to slice it by';
  return `The largest required block is ${mask(top.title)} (${tokens} tokens${why}). `;
}
