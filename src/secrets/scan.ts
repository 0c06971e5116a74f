import { invalidParams } from '../errors.ts';
import { scanSecretRecords } from '../core/scan.ts';
import { HOST_JUDGEMENT, RULE_COMMANDS, RULE_JUDGEMENTS, RULE_NAME_KEYWORDS, RULES } from './rules.generated.ts';
import { mapUtf16Offsets } from './offsets.ts';
import { amongConnectionPairs, configValueEnd, isEncodedPair, stringLiteralEnd, lonePairEnd, isQueryValue, queryValueEnd, insideDataUrl, isBasicCredential, isHeaderProse, isCredentialArgument, isGeneratedKey, isNonSecretAssignment, isNonSecretPassword, isJwkMember, isPlaceholder, isKeyStandIn, isPlaceholderHinted, oauthBasicUser, onCommandLine, pairValueEnd, queryValueExtent, quotedValueEnd, shellWordEnd, unquotedValueEnd, userinfoEnd, userinfoPassword } from './filters.ts';
import { listedKeys, recoveryPhraseEnd } from './wallet.ts';
import { fileKind } from './source-path.ts';
import { compileUserRules, matchUserRules } from './user-rules.ts';
import type { NameReading } from './filters.ts';
import type { Confidence, ScanOptions, SecretFinding } from './types.ts';

/**
 * How the host filters judge each built-in rule's value: RULE_JUDGEMENTS holds these flags by rule
 * index, from each rule's `host` field (build/rules/dsl.mjs): generic `name = value` assignments (ASSIGNMENT), passwords
 * inside a URL, a connection string, a .netrc entry or curl's `-u user:password` (PASSWORD), long
 * structural matches (key blocks) that the placeholder heuristics must not judge (STRUCTURAL),
 * base64 `user:password` fields that must decode to one (BASIC), values after a quoted name that
 * must be a call's arguments (ARGUMENT), generated key material (WordPress keys, a JSON Web Key's
 * members) that the placeholder fragments must not judge (KEY_MATERIAL), members of a JSON Web Key,
 * which need its `kty` near (JWK), arguments by position, with no name before them (POSITIONAL), and
 * values whose name is the nearest one holding a keyword: past a declaration's type, before an
 * environment read's fallback (DECLARED), and a connection string's pairs, which rank last when
 * they stand alone (PAIRS), and values under a name with no kind word (`STRIPE_KEY`), which must
 * look generated (GENERATED), a Go DSN's match, of which only the password is the secret
 * (USERINFO), and a flag's values found by searching on from a command, whose command line must
 * name it (COMMAND, RULE_COMMANDS), and a wallet's recovery phrase, whose words the host counts
 * (PHRASE, recoveryPhraseEnd), and a list of keys whose first the core matched (KEY_LIST,
 * listedKeys), and a Terraform variable's default, whose name is its block's label (LABEL, read
 * as such by the assignment's judgement), and a password after `user:` in a string being encoded,
 * which ends at the string's closing quote (ENCODED_PAIR), and an Authorization header's value,
 * which is documentation when it reads as words or decodes to a stand-in pair (HEADER_PROSE). An
 * assignment keyed on a statement (`ENV `, `#define `) or a block also has words its name must
 * hold (RULE_NAME_KEYWORDS).
 */
const { assignment: ASSIGNMENT, password: PASSWORD, structural: STRUCTURAL, basic: BASIC, argument: ARGUMENT, keyMaterial: KEY_MATERIAL, jwk: JWK, positional: POSITIONAL, declared: DECLARED, pairs: PAIRS, generated: GENERATED, userinfo: USERINFO, command: COMMAND, phrase: PHRASE, keyList: KEY_LIST, label: LABEL, encodedPair: ENCODED_PAIR, headerProse: HEADER_PROSE } = HOST_JUDGEMENT;
const RULE_INDEX = new Map(RULES.map((r, i) => [r.id, i]));
/**
 * Where each rule's assignment reads its value's name (isNonSecretAssignment), by rule index:
 * derived once from its judgements rather than for every candidate.
 */
const RULE_READING: readonly NameReading[] = Array.from(RULE_JUDGEMENTS, (kind) =>
  (kind & POSITIONAL) !== 0 ? 'none' : (kind & LABEL) !== 0 ? 'label' : (kind & DECLARED) !== 0 ? 'declared' : 'assigned',
);
/**
 * The rank of a connection string's pair (PAIRS) that stands alone: after every built-in rule and
 * before the user's, so the same span found by another rule (`export PASSWORD=…`, the generic
 * password rule) is named by that rule.
 */
const LONE_PAIR_RANK = RULES.length - 0.5;
const NO_USER_RULES: ReturnType<typeof compileUserRules> = [];
const NO_WORDS: readonly string[] = [];

/** A candidate in UTF-16 offsets before overlapping candidates are merged. */
interface Candidate {
  readonly priority: number;
  readonly ruleId: string;
  readonly confidence: Confidence;
  readonly start: number;
  readonly end: number;
  /** Line and column of `start` as the core reported them (0 for a user rule's match). */
  readonly line: number;
  readonly column: number;
}

/** Builds the set of enabled built-in rule indices from allow/deny lists (unknown ids are an error); undefined: all. */
function enabledRules(options: ScanOptions): ((index: number) => boolean) | undefined {
  if (options.allowRules === undefined && options.denyRules === undefined) return undefined;
  const check = (field: string, ids: readonly string[] | undefined): Set<number> | undefined => {
    if (ids === undefined) return undefined;
    if (!Array.isArray(ids)) throw invalidParams(field, 'must be an array of rule ids.');
    const set = new Set<number>();
    ids.forEach((id, k) => {
      const index = RULE_INDEX.get(id);
      // The unknown value is not echoed: a caller may have pasted something sensitive by mistake.
      if (index === undefined) throw invalidParams(`${field}[${k}]`, 'is not a built-in rule id; see RULES for the list.');
      set.add(index);
    });
    return set;
  };
  const allow = check('allowRules', options.allowRules);
  const deny = check('denyRules', options.denyRules);
  return (i) => (allow === undefined || allow.has(i)) && (deny === undefined || !deny.has(i));
}

/**
 * The scan pipeline shared by {@link scanSecrets} and redaction: core scan, host filters, user
 * rules, then overlapping matches merged into one finding (union of spans, highest-priority rule,
 * high confidence if any part is high) so a redaction never leaves part of a secret behind.
 * `utf8`: the text's UTF-8 bytes when the caller holds them (they must be exactly that), so they
 * are not encoded again.
 */
export function findSecrets(text: string, options: ScanOptions = {}, utf8?: Uint8Array): SecretFinding[] {
  if (typeof text !== 'string') throw invalidParams('text', 'must be a string.');
  if (options === null || typeof options !== 'object') throw invalidParams('options', 'must be an object.');
  if (options.mediumConfidence !== undefined && options.mediumConfidence !== 'redact' && options.mediumConfidence !== 'refuse') {
    throw invalidParams('mediumConfidence', "must be 'redact' or 'refuse'.");
  }
  if (options.path !== undefined && typeof options.path !== 'string') throw invalidParams('path', "must be a string: the text's file path or name.");
  // In source code an unquoted name is code wherever it stands, in a translation catalogue words
  // are UI text, and elsewhere a configuration line calls nothing (see ScanOptions.path).
  const file = fileKind(options.path);
  const enabled = enabledRules(options);
  const userRules = options.extraRules === undefined ? NO_USER_RULES : compileUserRules(options.extraRules);
  // Offsets come back in UTF-16 code units, with the line and column of each start.
  const records = scanSecretRecords(text, RULES.length, utf8);
  const n = records.length / 7;

  const candidates: Candidate[] = [];
  // Some candidate has no position from the core (a listed key after the first).
  let unplaced = false;
  for (let k = 0; k < n; k++) {
    const rule = records[k * 4]!;
    if (enabled !== undefined && !enabled(rule)) continue;
    let start = records[k * 4 + 1]!;
    let end = records[k * 4 + 2]!;
    let column = records[n * 4 + k * 2 + 1]!;
    let hint = records[n * 6 + k]!;
    const kind = RULE_JUDGEMENTS[rule]!;
    const confidence: Confidence = records[k * 4 + 3] === 1 ? 'high' : 'medium';
    // The keys after a list's first (the core's match ends at the first): same rule, judged as
    // any value is for stand-ins, whatever becomes of the first (a published development key
    // first does not hide a real one after it); their lines and columns are worked out below.
    if ((kind & KEY_LIST) !== 0) {
      for (const key of listedKeys(text, end)) {
        if (isPlaceholder(text.slice(key.start, key.end), false)) continue;
        candidates.push({ priority: rule, ruleId: RULES[rule]!.id, confidence, start: key.start, end: key.end, line: 0, column: 0 });
        unplaced = true;
      }
    }
    // Where the secret is another part of the match's line, the host takes that part: a Go DSN's
    // password (the match is its protocol, after it), and the user of GitHub's
    // `https://TOKEN:x-oauth-basic@github.com` (the password is a constant). Between the two spans
    // is ASCII on one line, so the column moves by as many units; the core's hint spoke of the
    // match, and this side judges the part itself.
    const part =
      (kind & USERINFO) !== 0
        ? userinfoPassword(text, start, end)
        : (kind & PASSWORD) !== 0 && end - start === 13 && text.startsWith('x-oauth-basic', start)
          ? oauthBasicUser(text, start)
          : null;
    if (part === undefined) continue;
    if (part !== null) {
      column += part.start - start;
      ({ start, end } = part);
      hint = 1;
    }
    const structural = (kind & STRUCTURAL) !== 0;
    const value = text.slice(start, end);
    const material = (kind & KEY_MATERIAL) !== 0;
    const phrase = (kind & PHRASE) !== 0;
    // Generated key material and a recovery phrase are judged by their own tests: as with a key
    // block, of the generic placeholder judgement only the published examples apply (a phrase's
    // words include `example`, `sample` and `test`, which are placeholder fragments elsewhere).
    if (isPlaceholderHinted(value, structural || material || phrase, hint)) continue;
    if (material && isKeyStandIn(value)) continue;
    if ((kind & JWK) !== 0 && !isJwkMember(text, start)) continue;
    if ((kind & COMMAND) !== 0 && !onCommandLine(text, start, RULE_COMMANDS[rule]!)) continue;
    if (phrase) {
      const words = recoveryPhraseEnd(text, start, end);
      if (words === undefined) continue;
      end = words;
    }
    // Before the assignment's judgement: most such values are another rule's (isGeneratedKey).
    if ((kind & GENERATED) !== 0 && !isGeneratedKey(text, start, value)) continue;
    // A key block holds key material: at least one long base64 run, not prose or `...`.
    if (structural && !/[A-Za-z0-9+/]{40}/.test(value)) continue;
    // A connection string's pair standing alone (`f(user=u, password=password)`) is an assignment,
    // and judged as one: code passing a variable is no secret.
    const lone = (kind & PAIRS) !== 0 && !amongConnectionPairs(text, start, end);
    if (lone) {
      end = lonePairEnd(text, start, end);
      if (isNonSecretAssignment(text, start, end, 'assigned', NO_WORDS, file)) continue;
      // Judged as an assignment, it ends as one on a configuration line (`PASSWORD=two words`).
      end = configValueEnd(text, start, end, file);
    } else if ((kind & PAIRS) !== 0) end = pairValueEnd(text, start, end);
    if ((kind & ASSIGNMENT) !== 0) {
      const query = isQueryValue(text, start);
      if (query) end = queryValueEnd(text, start, end);
      if (isNonSecretAssignment(text, start, end, RULE_READING[rule]!, RULE_NAME_KEYWORDS[rule], file, (kind & COMMAND) !== 0)) continue;
      // A command's argument ends with its shell word, an encoded pair's password with its string
      // (below), not as a configuration's value.
      if ((kind & (COMMAND | ENCODED_PAIR)) === 0) end = unquotedValueEnd(text, start, end, file);
      // Read to its token's end only where a query string's value does not end first.
      if (query) end = queryValueEnd(text, start, queryValueExtent(text, start, end));
    }
    if ((kind & ARGUMENT) !== 0 && !isCredentialArgument(text, start, text.slice(start, end))) continue;
    if ((kind & ENCODED_PAIR) !== 0 && !isEncodedPair(text, start, value)) continue;
    if ((kind & PASSWORD) !== 0 && isNonSecretPassword(value)) continue;
    if ((kind & BASIC) !== 0 && !isBasicCredential(value)) continue;
    if ((kind & HEADER_PROSE) !== 0 && isHeaderProse(value)) continue;
    if (insideDataUrl(text, start)) continue;
    // Judged on its first word, a quoted value is redacted whole.
    if ((kind & ASSIGNMENT) !== 0) end = quotedValueEnd(text, start, end);
    // A command's argument is a shell word; a URL's password runs to the authority's last `@`.
    if ((kind & COMMAND) !== 0) end = shellWordEnd(text, start, end);
    else if ((kind & ENCODED_PAIR) !== 0) end = stringLiteralEnd(text, start, end);
    else if ((kind & (PASSWORD | USERINFO | PAIRS)) === PASSWORD) end = userinfoEnd(text, end);
    candidates.push({
      priority: lone ? LONE_PAIR_RANK : rule,
      ruleId: RULES[rule]!.id,
      confidence,
      start,
      end,
      line: records[n * 4 + k * 2]!,
      column,
    });
  }
  userRules.forEach((rule, k) => {
    for (const m of matchUserRules(text, [rule])) {
      if (isPlaceholder(text.slice(m.start, m.end), false)) continue;
      candidates.push({ priority: RULES.length + k, ruleId: rule.id, confidence: rule.confidence, start: m.start, end: m.end, line: 0, column: 0 });
    }
  });
  if (candidates.length === 0) return [];

  candidates.sort((a, b) => a.start - b.start || a.priority - b.priority);
  const merged: Candidate[] = [];
  for (const c of candidates) {
    const last = merged[merged.length - 1];
    if (last && c.start < last.end) {
      const best = c.priority < last.priority ? c : last;
      merged[merged.length - 1] = {
        priority: best.priority,
        ruleId: best.ruleId,
        confidence: last.confidence === 'high' || c.confidence === 'high' ? 'high' : 'medium',
        start: last.start,
        end: Math.max(last.end, c.end),
        line: last.line,
        column: last.column,
      };
    } else merged.push(c);
  }
  // A user rule's match, or a listed key, has no position from the core: then the host walks the
  // text for all.
  const positions =
    userRules.length === 0 && !unplaced
      ? merged
      : mapUtf16Offsets(
          text,
          merged.map((c) => c.start),
        );
  return merged.map((c, k) => ({
    ruleId: c.ruleId,
    confidence: c.confidence,
    start: c.start,
    end: c.end,
    line: positions[k]!.line,
    column: positions[k]!.column,
  }));
}

/**
 * Finds secrets in a text: each finding has the rule id, confidence, UTF-16 `start`/`end` and a
 * 1-based `line`/`column`, never the value. Synchronous: needs `await loadCore()` first.
 */
export function scanSecrets(text: string, options: ScanOptions = {}): SecretFinding[] {
  return findSecrets(text, options);
}
