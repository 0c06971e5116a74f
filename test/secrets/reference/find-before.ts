// Frozen copy of the host side of the secret scan before it was tuned for speed (src/secrets/scan.ts,
// filters.ts and offsets.ts as they were), run over the frozen reference core: the differential test
// checks that every finding is still the same. Not used by the library.
import { invalidParams } from '../../../src/errors.ts';
import { amongConnectionPairs, configValueEnd, lonePairEnd, isGeneratedKey, isQueryValue, queryValueEnd, declaredName, hasPlaceholderFragment, isShellDefaultMisread, isCallOrIndex, isCodeReference, isCredentialArgument, isDottedReference, isNonSecretName, isPathLike, isSecretReference, isSlotOrQuotedCode, isJwkMember, isKeyStandIn, nameHolds, quotedValueEnd, unquotedValueEnd, userinfoPassword, xBearerStandIn, assignsLiteral, echoesName, hasGeneratedShape, isFormattedString, oauthBasicUser, onCommandLine, isStandInOrText, namesCredential, isSecretKeyReference, isEncodedPair, isHeaderProse, stringLiteralEnd, pairValueEnd, queryValueExtent, shellWordEnd, userinfoEnd, variableLabel } from '../../../src/secrets/filters.ts';
import { HOST_JUDGEMENT, RULE_COMMANDS, RULE_JUDGEMENTS, RULE_NAME_KEYWORDS, RULES } from '../../../src/secrets/rules.generated.ts';
import { listedKeys, recoveryPhraseEnd } from '../../../src/secrets/wallet.ts';
import { compileUserRules, matchUserRules } from '../../../src/secrets/user-rules.ts';
import type { NameReading } from '../../../src/secrets/filters.ts';
import type { RawSecretMatch } from '../../../src/core/scan.ts';
import type { Confidence, ScanOptions, SecretFinding } from '../../../src/secrets/types.ts';

/** A core scan returning matches in UTF-16 offsets. */
export type RawScan = (text: string) => { matches: RawSecretMatch[] };

interface TextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Rules by the host judgement their `host` field names (RULE_JUDGEMENTS): judgement data, not a
 * speed path, so read from the rule set rather than frozen (the host once matched rule ids here).
 */
const rulesWith = (bit: number) => new Set(RULES.map((_, i) => i).filter((i) => (RULE_JUDGEMENTS[i]! & bit) !== 0));
const ARGUMENT_RULES = rulesWith(HOST_JUDGEMENT.argument);
const ASSIGNMENT_RULES = rulesWith(HOST_JUDGEMENT.assignment);
const PASSWORD_RULES = rulesWith(HOST_JUDGEMENT.password);
const STRUCTURAL_RULES = rulesWith(HOST_JUDGEMENT.structural);
const BASIC_RULES = rulesWith(HOST_JUDGEMENT.basic);
/** Came with FILTERS_VERSION 11: WordPress keys and a JSON Web Key's members, judged by their own test. */
const MATERIAL_RULES = rulesWith(HOST_JUDGEMENT.keyMaterial);
/** Came with FILTERS_VERSION 11: a JSON Web Key's members also need its `kty` near. */
const JWK_RULES = rulesWith(HOST_JUDGEMENT.jwk);
/** Came with FILTERS_VERSION 11: arguments by position, judged without a name. */
const POSITIONAL_RULES = rulesWith(HOST_JUDGEMENT.positional);
/**
 * Came with FILTERS_VERSION 12: values whose name is the nearest one holding a keyword (past a
 * declaration's type; FILTERS_VERSION 13: before an environment read's fallback).
 */
const DECLARED_RULES = rulesWith(HOST_JUDGEMENT.declared);
/** Came with FILTERS_VERSION 16: a connection string's pair, which alone ranks after the other built-in rules. */
const PAIRS_RULES = rulesWith(HOST_JUDGEMENT.pairs);
/** Came with FILTERS_VERSION 18: values under a name with no kind word (`STRIPE_KEY`), which must look generated. */
const GENERATED_RULES = rulesWith(HOST_JUDGEMENT.generated);
/** Came with FILTERS_VERSION 19: a match at a Go DSN's protocol, whose password the host reads back from it. */
const USERINFO_RULES = rulesWith(HOST_JUDGEMENT.userinfo);
/** Came with FILTERS_VERSION 19: a flag's value found on from its command must be on the command's line. */
const COMMAND_RULES = rulesWith(HOST_JUDGEMENT.command);
/** Came with FILTERS_VERSION 23: a password after `user:` in a string being encoded. */
const ENCODED_PAIR_RULES = rulesWith(HOST_JUDGEMENT.encodedPair);
/** Came with FILTERS_VERSION 20: a wallet's recovery phrase, whose words the host counts. */
const PHRASE_RULES = rulesWith(HOST_JUDGEMENT.phrase);
/** Came with FILTERS_VERSION 20: a list of keys whose first the core matched. */
const KEY_LIST_RULES = rulesWith(HOST_JUDGEMENT.keyList);
/** Came with FILTERS_VERSION 21: a Terraform variable's default, named by its block's label. */
const LABEL_RULES = rulesWith(HOST_JUDGEMENT.label);
/** Came with FILTERS_VERSION 28: an Authorization header's value that reads as words is documentation. */
const HEADER_PROSE_RULES = rulesWith(HOST_JUDGEMENT.headerProse);
const RULE_INDEX = new Map(RULES.map((r, i) => [r.id, i]));

/** A candidate in UTF-16 offsets before overlapping candidates are merged. */
interface Candidate {
  readonly priority: number;
  readonly ruleId: string;
  readonly confidence: Confidence;
  readonly start: number;
  readonly end: number;
}

/** Builds the set of enabled built-in rule indices from allow/deny lists (unknown ids are an error). */
function enabledRules(options: ScanOptions): (index: number) => boolean {
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
 */
export function findSecretsBefore(text: string, scanText: RawScan, options: ScanOptions = {}): SecretFinding[] {
  if (typeof text !== 'string') throw invalidParams('text', 'must be a string.');
  if (options === null || typeof options !== 'object') throw invalidParams('options', 'must be an object.');
  if (options.mediumConfidence !== undefined && options.mediumConfidence !== 'redact' && options.mediumConfidence !== 'refuse') {
    throw invalidParams('mediumConfidence', "must be 'redact' or 'refuse'.");
  }
  const enabled = enabledRules(options);
  const userRules = compileUserRules(options.extraRules);
  // Offsets come back in UTF-16 code units (the core maps them on non-ASCII text).
  const raw = scanText(text);

  const candidates: Candidate[] = [];
  if (raw.matches.length > 0) {
    const matches = raw.matches.filter((m) => enabled(m.rule));
    for (const m of matches) {
      let { start, end } = m;
      // FILTERS_VERSION 20: the host's own.
      if (KEY_LIST_RULES.has(m.rule)) {
        for (const key of listedKeys(text, end)) {
          if (isPlaceholder(text.slice(key.start, key.end), false)) continue;
          candidates.push({ priority: m.rule, ruleId: RULES[m.rule]!.id, confidence: m.confidence === 1 ? 'high' : 'medium', start: key.start, end: key.end });
        }
      }
      // FILTERS_VERSION 19: the host's own, as is GitHub's `TOKEN:x-oauth-basic`, whose user is the token.
      if (PASSWORD_RULES.has(m.rule) && text.slice(start, end) === 'x-oauth-basic') {
        const user = oauthBasicUser(text, start);
        if (user === undefined) continue;
        ({ start, end } = user);
      }
      if (USERINFO_RULES.has(m.rule)) {
        const password = userinfoPassword(text, start, end);
        if (password === undefined) continue;
        ({ start, end } = password);
      }
      const value = text.slice(start, end);
      const material = MATERIAL_RULES.has(m.rule);
      const phrase = PHRASE_RULES.has(m.rule);
      if (isPlaceholder(value, STRUCTURAL_RULES.has(m.rule) || material || phrase)) continue;
      if (material && isKeyStandIn(value)) continue;
      if (JWK_RULES.has(m.rule) && !isJwkMember(text, start)) continue;
      // FILTERS_VERSION 19: the host's own.
      if (COMMAND_RULES.has(m.rule) && !onCommandLine(text, start, RULE_COMMANDS[m.rule]!)) continue;
      // FILTERS_VERSION 21: the host's own.
      if (LABEL_RULES.has(m.rule)) {
        const label = variableLabel(text, start);
        if (label === undefined || !nameHolds(label, RULE_NAME_KEYWORDS[m.rule]!) || isNonSecretName(label)) continue;
      }
      // FILTERS_VERSION 20: the host's own.
      if (phrase) {
        const words = recoveryPhraseEnd(text, start, end);
        if (words === undefined) continue;
        end = words;
      }
      // FILTERS_VERSION 18: the host's own.
      if (GENERATED_RULES.has(m.rule) && !isGeneratedKey(text, start, value)) continue;
      // A key block holds key material: at least one long base64 run, not prose or `...`.
      if (STRUCTURAL_RULES.has(m.rule) && !/[A-Za-z0-9+/]{40}/.test(value)) continue;
      // FILTERS_VERSION 16: a lone connection string's pair ranks after the other built-in rules;
      // 17: it ends before a closer or a call's bracket and is judged as an assignment. The host's own.
      const lone = PAIRS_RULES.has(m.rule) && !amongConnectionPairs(text, start, end);
      if (lone) {
        end = lonePairEnd(text, start, end);
        if (isNonSecretAssignment(text, start, end, 'assigned', [])) continue;
        // FILTERS_VERSION 22: on a configuration line it runs to the line's end; the host's own.
        end = configValueEnd(text, start, end);
      } else if (PAIRS_RULES.has(m.rule)) end = pairValueEnd(text, start, end);
      if (ASSIGNMENT_RULES.has(m.rule)) {
        // FILTERS_VERSION 17: a query string's value ends at `&` or `#`; the host's own.
        const query = isQueryValue(text, start);
        if (query) end = queryValueEnd(text, start, end);
        if (isNonSecretAssignment(text, start, end, POSITIONAL_RULES.has(m.rule) || LABEL_RULES.has(m.rule) ? 'none' : DECLARED_RULES.has(m.rule) ? 'declared' : 'assigned', RULE_NAME_KEYWORDS[m.rule]!, COMMAND_RULES.has(m.rule))) continue;
        // A judgement added after the speed work (FILTERS_VERSION 7): the host's own; FILTERS_VERSION
        // 13: a shell default ends at its `}`.
        // FILTERS_VERSION 22: a command's argument ends with its shell word (below).
        // FILTERS_VERSION 23: nor an encoded pair's password, which ends with its string.
        if (!COMMAND_RULES.has(m.rule) && !ENCODED_PAIR_RULES.has(m.rule)) end = unquotedValueEnd(text, start, end);
        // FILTERS_VERSION 22: past the core's end to its `&` or `#`; the host's own.
        if (query) end = queryValueEnd(text, start, queryValueExtent(text, start, end));
      }
      // A judgement added after the speed work (FILTERS_VERSION 3): the host's own.
      // FILTERS_VERSION 9: translation calls and slugs too.
      if (ARGUMENT_RULES.has(m.rule) && !isCredentialArgument(text, start, text.slice(start, end))) continue;
      // FILTERS_VERSION 23: the host's own.
      if (ENCODED_PAIR_RULES.has(m.rule) && !isEncodedPair(text, start, value)) continue;
      if (PASSWORD_RULES.has(m.rule) && isNonSecretPassword(value)) continue;
      if (BASIC_RULES.has(m.rule) && !isBasicCredential(value)) continue;
      // FILTERS_VERSION 28: the host's own.
      if (HEADER_PROSE_RULES.has(m.rule) && isHeaderProse(value)) continue;
      if (insideDataUrl(text, start)) continue;
      // FILTERS_VERSION 11: a quoted value found up to a blank runs to its quote; the host's own.
      if (ASSIGNMENT_RULES.has(m.rule)) end = quotedValueEnd(text, start, end);
      // FILTERS_VERSION 22: a command's argument is a shell word, a URL's password runs to the
      // authority's last `@`; the host's own.
      if (COMMAND_RULES.has(m.rule)) end = shellWordEnd(text, start, end);
      else if (ENCODED_PAIR_RULES.has(m.rule)) end = stringLiteralEnd(text, start, end);
      else if (PASSWORD_RULES.has(m.rule) && !PAIRS_RULES.has(m.rule) && !USERINFO_RULES.has(m.rule)) end = userinfoEnd(text, end);
      const rule = RULES[m.rule]!;
      candidates.push({ priority: lone ? RULES.length - 0.5 : m.rule, ruleId: rule.id, confidence: m.confidence === 1 ? 'high' : 'medium', start, end });
    }
  }
  userRules.forEach((rule, k) => {
    for (const m of matchUserRules(text, [rule])) {
      if (isPlaceholder(text.slice(m.start, m.end), false)) continue;
      candidates.push({ priority: RULES.length + k, ruleId: rule.id, confidence: rule.confidence, start: m.start, end: m.end });
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
      };
    } else merged.push(c);
  }
  const positions = mapUtf16Offsets(
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


/** Published documentation values (built by concatenation so no tool mistakes this file for a leak). */
const KNOWN_EXAMPLES = new Set<string>([
  'AKIA' + 'IOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY',
  'sk_test_' + '4eC39HqLyjWDarjtT1zdp7dc',
  'sk_test_' + 'BQokikJOvBiI2HlWgH4olfQ2',
  'sk_test_' + '26PHem9AhJZvU623DfE1x4sd',
  'ghp_' + '16C7e42F292c6912E7710c838347Ae178B4a',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
    'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' +
    'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  // Judgement data, not a speed path: kept in step with filters.ts (FILTERS_VERSION 4).
  'AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3D' + 'EUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F',
  // FILTERS_VERSION 30: MinIO's public play server key.
  'zuf+tfteSlswRu7BJ86wekitnif' + 'ILbZam1KYY3TG',
  // FILTERS_VERSION 29: RFC 7617's and MDN's Basic credentials (Aladdin, open sesame).
  'QWxhZGRpbjpvcGVu' + 'IHNlc2FtZQ==',
  'YWxhZGRpbjpvcGVu' + 'c2VzYW1l',
  // FILTERS_VERSION 20: Hardhat's and Anvil's first four development keys.
  ...['ac0974bec39a17e36ba4a6b4d238ff94' + '4bacb478cbed5efcae784d7bf4f2ff80', '59c6995e998f97a5a0044966f0945389' + 'dc9e86dae88c7a8412f4603b6b78690d', '5de4111afa1a4b94908f83103eb1f170' + '6367c2e68ca870fc3fb9a804cdab365a', '7c852118294e51e653712a81e05800f4' + '19141751be58f605c371e15141b007a6'].flatMap((k) => [k, k.toUpperCase()]).flatMap((k) => [k, `0x${k}`]),
]);

/** Whole values that are defaults or words, not secrets (generic rules and URL passwords). */
const STOP_VALUES = new Set([
  'password', 'passwd', 'pass', 'pwd', 'secret', 'secrets', 'token', 'apikey', 'api_key', 'changeme', 'admin', 'administrator', 'root',
  'guest', 'test', 'testing', 'test1234', 'testpass', 'testpassword', 'default', 'postgres', 'mysql', 'redis', 'rabbitmq', 'mongo', 'user',
  'username', 'none', 'null', 'nil', 'undefined', 'true', 'false', 'required', 'optional', 'string', 'value', 'hunter2', '12345678',
  '123456789', 'qwerty', 'qwertyuiop', 'letmein', 'p@ssw0rd', 'p@ssword', 'password1', 'password123', 'secret123', 'mypassword',
  'mysecret', 'supersecret', 'notasecret', 'sekret', 'foobar', 'foobarbaz', 'abc123', 'abcdefgh', 'welcome1', 'trustno1',
  // Judgement data, not a speed path: kept in step with filters.ts (FILTERS_VERSION 3).
  'changeit',
]);

const REFERENCE = /^(process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|env\.|env\[|ENV\[|System\.getenv|Deno\.env|config\.|settings\.|secrets\.|vars\.|self\.|this\.|props\.|ctx\.|context\.|req\.|request\.|params\.|options\.|opts\.|args\.)/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGRITY = /^(sha1|sha256|sha384|sha512)-/i;
/** `$VAR`, `$VAR/…`, `${…}`, `$(…)`: a shell or template reference. A value such as `$mkz4H*00…` is not one. */
// Judgement data, kept in step with filters.ts (FILTERS_VERSION 19: PowerShell's `$env:VAR`).
const DOLLAR_REFERENCE = /^\$(\{|\(|[Ee]nv:\w+$|[A-Za-z_]\w*(\/|$))/;

/** True when a value looks like a stand-in rather than a credential (any rule). */
function isPlaceholder(value: string, structural: boolean): boolean {
  if (KNOWN_EXAMPLES.has(value)) return true;
  // Long structural matches (private keys) legitimately contain runs such as AAAAAA.
  if (structural) return false;
  // A judgement added after the speed work (FILTERS_VERSION 4): an X bearer token's runs of A are
  // its format; the host's own.
  const xBearer = xBearerStandIn(value);
  if (xBearer !== undefined) return xBearer;
  // Which fragments count is a judgement, not a speed path (FILTERS_VERSION 3: short ones in one
  // case only): the host's own.
  if (hasPlaceholderFragment(value)) return true;
  // A run of six identical characters: `sk-aaaaaa…`, `000000…`. Random tokens almost never have one.
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) ? run + 1 : 1;
    if (run >= 6) return true;
  }
  return false;
}

/** True when a generic `name = value` candidate is not a secret. */
function isNonSecretAssignment(text: string, start: number, end: number, reading: NameReading, words: readonly string[], command = false): boolean {
  // FILTERS_VERSION 13: shell's `${NAME:-value}` is the shell-default rules' (the host's own).
  if (isShellDefaultMisread(text, start)) return true;
  // FILTERS_VERSION 19: what the operator before the value says (`?:`, `+=`, `||=`), the host's own.
  if (reading === 'assigned' && !assignsLiteral(text, start)) return true;
  const value = text.slice(start, end);
  const lower = value.toLowerCase();
  // A judgement added after the speed work: the host's own.
  if (isSecretReference(value)) return true;
  if (STOP_VALUES.has(lower)) return true;
  // FILTERS_VERSION 22: stand-ins written as phrases (`change-me`, `wrong-password`); 25: a
  // validation rule list and code's name for a thing about a secret; 27: an app password's
  // alphabet runs. The host's own.
  if (isStandInOrText(value, 'unknown')) return true;
  // Judgements added after the speed work (rule steps 2, quoted values run to their quote): the
  // host's own. A quoted dotted value with digits between letters is a password.
  // FILTERS_VERSION 10: a path with a random part is base64 (the host's own).
  // FILTERS_VERSION 26: a UUID is an id unless a credential's name holds it (below).
  const uuid = UUID.test(value);
  if (REFERENCE.test(value) || isDottedReference(text, start, value) || (uuid && (reading === 'none' || lower === '123e4567-e89b-12d3-a456-426614174000')) || isPathLike(value) || INTEGRITY.test(value)) {
    return true;
  }
  if (DOLLAR_REFERENCE.test(value) || value.includes('://')) return true;
  // FILTERS_VERSION 19, written plainly: a negated member read in code, unquoted, of a lowercase
  // object and not generated.
  const negated = /^!!?([a-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+)$/.exec(value);
  if (negated && !(start > 0 && '"\'`'.includes(text[start - 1]!)) && !hasGeneratedShape(negated[1]!)) return true;
  if (isSlotOrQuotedCode(text, start, value)) return true;
  // FILTERS_VERSION 19: an f-string that interpolates (the host's own).
  if (value.includes('{') && isFormattedString(text, start)) return true;
  // A judgement added after the speed work (FILTERS_VERSION 3): the host's own; FILTERS_VERSION 31:
  // on a command line a name is a stand-in only if its words name a secret.
  if (isCodeReference(text, start, end, value, false, command)) return true;
  // FILTERS_VERSION 12: a called or indexed name is code unless its shape is generated (the host's own).
  if (isCallOrIndex(text, end, value)) return true;
  // FILTERS_VERSION 11: an argument by position has no name (the host's own).
  if (reading === 'none') return false;
  // FILTERS_VERSION 12: a typed declaration's name is read past its type; 13: an environment
  // read's before its fallback (the host's own).
  const { name, at } = reading === 'declared' ? declaredName(text, start) : assignedName(text, start);
  // FILTERS_VERSION 14: a rule keyed on a statement needs one of its words in the name (the host's own).
  if (words.length > 0 && !nameHolds(name, words)) return true;
  // `scheme://name:value@host` is URL userinfo, which the URL rules judge.
  if (at >= 3 && text.slice(at - 3, at) === '://') return true;
  // FILTERS_VERSION 26: the host's own.
  if (uuid && !namesCredential(name)) return true;
  // What a name says is a judgement, not a speed path: the host's own (src/secrets/filters.ts);
  // FILTERS_VERSION 19: so is a value that only repeats its name's words.
  // FILTERS_VERSION 25: a chart's reference to a Kubernetes secret's key or name (the host's own).
  return name !== '' && (isNonSecretName(name) || isSecretKeyReference(name, value) || echoesName(text, start, end, name, value));
}

/** True when a URL or connection-string password is a default or a reference. */
function isNonSecretPassword(value: string): boolean {
  const lower = value.toLowerCase();
  return STOP_VALUES.has(lower) || DOLLAR_REFERENCE.test(value) || value.startsWith('%') || lower.startsWith('env:');
}

/**
 * The identifier a value is assigned to: skip back over quotes, blanks and `:`/`=`/`>`, then take
 * the name characters before them (bounded, so a long line costs nothing extra).
 */
function assignedName(text: string, start: number): { name: string; at: number } {
  const floor = Math.max(0, start - 160);
  let found = nameBefore(text, start, floor);
  // Not frozen: a default given by keyword (FILTERS_VERSION 23) names the quoted variable before it,
  // past other keyword arguments whose values are names (FILTERS_VERSION 24: `cast=str, `).
  if (found.name === 'default' && /^default=/.test(text.slice(found.at)) && /[ \t\r\n,]$/.test(text.slice(floor, found.at))) {
    const before = text.slice(floor, found.at);
    const past = /["'`][ \t\r\n,]*((?:[\w.-]+=[\w.-]+[ \t\r\n,]*,[ \t\r\n,]*){1,4})$/.exec(before);
    const end = past ? found.at - past[1]!.length : found.at;
    return nameBefore(text, floor + /[ \t\r\n,]*$/.exec(text.slice(floor, end))!.index, floor);
  }
  // Not frozen (FILTERS_VERSION 23): an argument on the line after its quoted name's.
  if (found.name === '' && /[\r\n]$/.test(text.slice(floor, found.at))) {
    const above = nameBefore(text, floor + /[ \t\r\n,]*$/.exec(text.slice(floor, found.at))!.index, floor);
    if (above.name !== '') return above;
  }
  // Not frozen (FILTERS_VERSION 23): a property list's `<string>` is named by the `<key>` before it.
  if (found.name === 'string') {
    const key = /<key>([A-Za-z0-9_.-]+)<\/key>[ \t\r\n]*<$/.exec(text.slice(floor, found.at));
    if (key) return { name: key[1]!, at: floor + key.index + 5 };
  }
  // Not frozen: the name/value entry rule came with the env-entry rules (ruleset 0975efe6…), after
  // the speed work; the reference takes the entry's name the same way, written plainly (and, from
  // FILTERS_VERSION 23, past an attribute's namespace prefix, `android:value`).
  if (found.name.toLowerCase() === 'value') {
    const prefix = /[A-Za-z0-9_.-]*:$/.exec(text.slice(floor, found.at));
    if (prefix) found = { name: found.name, at: floor + prefix.index };
    const lineBreak = /\r?\n[ \t]*$/.exec(text.slice(floor, found.at));
    if (lineBreak) {
      const named = nameBefore(text, floor + lineBreak.index, floor);
      return named.name !== '' ? named : found;
    }
    // Also not frozen: a pair names its value in the field before `value`.
    const gap = /[ \t\r\n"'`\],]+$/.exec(text.slice(floor, found.at));
    if (gap) {
      const named = nameBefore(text, floor + gap.index, floor);
      if (named.name !== '') return named;
    }
  }
  return found;
}

/** `user:password` in base64, printable, with a password that is not a default or a reference. */
function isBasicCredential(value: string): boolean {
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return false;
  }
  const m = /^([\x20-\x7e\x80-\xff]+?):([\x20-\x7e\x80-\xff]+)$/.exec(decoded);
  return m !== null && !isNonSecretPassword(m[2]!);
}

function nameBefore(text: string, end: number, floor: number): { name: string; at: number } {
  let i = end;
  // `,` added with the argument rules (a quoted name, then its argument); `\\` with escaped
  // quotes (FILTERS_VERSION 18).
  while (i > floor && ' \t"\'`]:=>,\\'.includes(text[i - 1]!)) i--;
  // Not frozen (FILTERS_VERSION 19), written plainly: the name is read past an operator that
  // assigns a default or appends (`?=`, `+=`, `||=`, `??=`) and past a string literal's prefix
  // right before the value's quote (`b'…'`).
  const prefix = /[ \t"'`\]:=>,\\]([rRbBuUfF]{1,2})$/.exec(text.slice(Math.max(floor, i - 3), i));
  if (i === end - 1 && '"\'`'.includes(text[i]!) && prefix) {
    i -= prefix[1]!.length;
    while (i > floor && ' \t"\'`]:=>,\\'.includes(text[i - 1]!)) i--;
  }
  const op = /(\?\?|\|\||[?+|])$/.exec(text.slice(Math.max(floor, i - 2), i));
  if (text[i] === '=' && op) {
    i -= op[0].length;
    while (i > floor && ' \t"\'`]:=>,\\'.includes(text[i - 1]!)) i--;
  }
  const stop = i;
  while (i > floor && /[\w.-]/.test(text[i - 1]!)) i--;
  return { name: text.slice(i, stop), at: i };
}

/** True when a match sits inside a `data:…;base64,` payload. */
function insideDataUrl(text: string, start: number): boolean {
  let i = start;
  const floor = Math.max(0, start - 65_536);
  while (i > floor && /[A-Za-z0-9+/=]/.test(text[i - 1]!)) i--;
  return i >= 7 && text.slice(i - 7, i) === 'base64,';
}

/** Line and column of UTF-16 offsets (ascending) in `text`. */
function mapUtf16Offsets(text: string, offsets: readonly number[]): TextPosition[] {
  const out: TextPosition[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const target of offsets) {
    for (let nl = text.indexOf('\n', scanned); nl !== -1 && nl < target; nl = text.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    scanned = Math.max(scanned, target);
    out.push({ offset: target, line, column: target - lineStart + 1 });
  }
  return out;
}
