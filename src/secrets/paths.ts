import ignore, { type Ignore } from 'ignore';
import { expectArray, expectOptions, wrongItem, wrongKind } from '../args.ts';
import { invalidParams } from '../errors.ts';
import type { ExclusionReason } from './reasons.ts';

/**
 * The never-send paths of spec 001 ("Default Deny"), in .gitignore syntax. Matched with git's own
 * rules: `node_modules/**` and `packages/**` are anchored at the project root, `**\/bin/**` at any depth.
 */
export const NEVER_SEND_PATHS: readonly string[] = Object.freeze([
  '.git/**',
  '.vs/**',
  '**/bin/**',
  '**/obj/**',
  'node_modules/**',
  'packages/**',
  '**/*.pfx',
  '**/*.key',
  '**/*.pem',
  '**/*.env',
]);

/**
 * Files whose purpose is to hold credentials, never sent by default beside the spec's list (which
 * names only `*.env`): dotenv variants such as `.env.local` and `.env.production` (their committed
 * templates `.env.example`, `.env.sample`, `.env.template` and `.env.dist` stay allowed), direnv's
 * `.envrc`, SSH private keys, key stores, password files, cloud and git credential files (also a
 * kubeconfig, gcloud's application default credentials, Vault's token file, `.pypirc`, s3cmd's
 * `.s3cfg`, Docker's legacy `.dockercfg`), Terraform state (it holds every resource's secrets in
 * plain text), and Wi-Fi passphrases (wpa_supplicant's configuration, NetworkManager's profiles).
 * The content scanner would redact most of what they hold; these files are left out whole
 * because what they hold is credentials by definition, including values no rule can recognise
 * (`.pgpass` lines, a Wi-Fi `psk=`, an unlabelled password). Re-include one with an allow rule.
 */
export const CREDENTIAL_FILE_PATHS: readonly string[] = Object.freeze([
  '**/.env.*',
  '!**/.env.example',
  '!**/.env.sample',
  '!**/.env.template',
  '!**/.env.dist',
  '**/.envrc',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/id_ecdsa_sk',
  '**/id_ed25519_sk',
  '**/*.p12',
  '**/*.ppk',
  '**/*.jks',
  '**/*.keystore',
  '**/.netrc',
  '**/_netrc',
  '**/.pgpass',
  '**/.git-credentials',
  '**/.htpasswd',
  '**/.aws/credentials',
  '**/*.tfstate',
  '**/*.tfstate.backup',
  '**/.kube/config',
  '**/application_default_credentials.json',
  '**/.vault-token',
  '**/.pypirc',
  '**/.s3cfg',
  '**/.dockercfg',
  '**/wpa_supplicant*.conf',
  '**/*.nmconnection',
]);

/** A default rule as the gate matches it, and as the lists write it (the name a decision gives). */
export interface DefaultPathRule {
  readonly pattern: string;
  readonly listed: string;
  readonly list: 'spec' | 'credentials';
}

/**
 * The default lists as the gate matches them. A rule for files (every one but the directory rules
 * ending in `/**`) matches the file's name in any case, whatever `ignoreCase` says: on the
 * case-insensitive file systems of macOS and Windows `Server.PEM`, `.ENV` and `ID_RSA` are what
 * tools and people write, and they hold the same credentials. Each letter becomes a class of both
 * cases (`**\/*.[pP][eE][mM]`), which git reads the same way. Directory rules (`node_modules/**`,
 * `packages/**`) keep their case: Unity's `Packages/` is source, not NuGet's `packages/`.
 */
export const DEFAULT_PATH_RULES: readonly DefaultPathRule[] = Object.freeze(
  [...NEVER_SEND_PATHS.map((p) => [p, 'spec'] as const), ...CREDENTIAL_FILE_PATHS.map((p) => [p, 'credentials'] as const)].map(([listed, list]) =>
    Object.freeze({ pattern: listed.endsWith('/**') ? listed : anyCase(listed), listed, list }),
  ),
);

/** A pattern whose ASCII letters match in either case: each becomes a class of both. */
function anyCase(pattern: string): string {
  return pattern.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/**
 * Identifies the default rules in a bundle's config fingerprint: the first 16 hex digits of the
 * SHA-256 of `JSON.stringify` of {@link DEFAULT_PATH_RULES}' patterns as matched. A test recomputes
 * it, so neither a list nor the way it is matched can change without this changing too.
 */
export const DEFAULT_PATH_RULES_VERSION = '3b94905ef605f901';

/** Options of {@link createPathGate}. */
export interface PathGateOptions {
  /** Extra deny rules, .gitignore syntax (one pattern per entry; `!pattern` re-includes). */
  readonly deny?: readonly string[];
  /** Re-include rules, .gitignore syntax without the `!`; applied after every deny rule. */
  readonly allow?: readonly string[];
  /** Start from {@link NEVER_SEND_PATHS} and {@link CREDENTIAL_FILE_PATHS} (default true). */
  readonly defaults?: boolean;
  /** Match case-insensitively, as git does with core.ignoreCase (default false, git's default on Linux). */
  readonly ignoreCase?: boolean;
}

/** The gate's verdict on one path. */
export type PathDecision =
  | { readonly allowed: true; readonly path: string }
  | {
      readonly allowed: false;
      readonly path: string;
      readonly reason: ExclusionReason;
      readonly detail: string;
      /**
       * For `deny_rule`: the pattern that excluded the path (or its directory), as written: the
       * last rule to match, the one `git check-ignore -v` names.
       */
      readonly rule?: string;
    };

/** Result of {@link normalizeProjectPath}. */
export type NormalizedPath = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly detail: string };

/** A reusable path gate. */
export interface PathGate {
  /** Decides one path (relative to the project root, `/`-separated). */
  check(path: string): PathDecision;
  /** Decides many paths in order; a path seen before (after normalisation) is a `duplicate`. */
  checkAll(paths: readonly string[]): PathDecision[];
}

// Characters whose compatibility form is a path separator, a dot, a colon or a backslash
// (fullwidth solidus, one-dot leader, division slash, ...), and invisible format characters
// (bidi overrides, zero-width joiners, BOM) that make a path look like another.
const FORMAT_CHAR = /\p{Cf}/u;
const ENCODED_SEPARATOR = /%(2e|2f|5c|00)/i;
// Look-alikes that NFKC leaves alone: division/fraction slashes, set minus, ideographic full stops.
const SLASH_OR_DOT_LOOKALIKE = /[\u2215\u2044\u29f8\u2216\u29f5\u29f9\u3002\uff61\u0338]/;

/**
 * Longest path the gate decides, in UTF-8 bytes (Linux's PATH_MAX). Git has no limit of its own,
 * but matching tests every ancestor directory of a path against the rules, so its cost grows with
 * length times depth (and `ignore` walks the ancestors recursively); a longer path is refused,
 * fail closed, instead of being matched slowly or overflowing the stack.
 */
export const MAX_PATH_BYTES = 4096;
/** Most segments (directories plus the name, after normalisation) a path may have; deeper is refused. */
export const MAX_PATH_SEGMENTS = 1024;
/**
 * Longest line of a deny or allow rule, in UTF-16 code units. Longer rules are INVALID_PARAMS: a
 * .gitignore line is far shorter, and each engine refuses a regular expression past a size of its
 * own (V8 at about 32 K characters of pattern), so the limit is ours and the same everywhere.
 */
export const MAX_PATTERN_LENGTH = 4096;

/**
 * Normalises a path relative to the project root and refuses anything that could leave it or
 * disguise itself: absolute and drive paths, backslashes, NUL and control characters, `..`,
 * percent-encoded separators, invisible format characters, and characters whose Unicode
 * compatibility form is `/`, `\`, `.` or `:`. Paths longer than {@link MAX_PATH_BYTES} UTF-8
 * bytes or deeper than {@link MAX_PATH_SEGMENTS} segments are refused too. The result is NFC,
 * without `.` segments or repeated slashes; a trailing `/` marks a directory.
 *
 * A string that is not a usable path is a refusal (`ok: false`); a `path` that is not a string at
 * all is a caller's bug, INVALID_PARAMS (`path`).
 */
export function normalizeProjectPath(path: string): NormalizedPath {
  if (typeof path !== 'string') throw wrongKind('path', 'a string', path);
  if (path.length === 0) return { ok: false, detail: 'empty path' };
  // Every UTF-16 unit is at least one UTF-8 byte: an absurd path is refused before it is scanned.
  if (path.length > MAX_PATH_BYTES) return TOO_LONG;
  let ascii = true;
  let percent = false;
  // Already in normal form: no empty, `.` or `..` segment (a final empty one is a trailing `/`).
  // The builder normalises every path of a project several times, mostly paths it normalised
  // before, so those skip the split and join.
  let plain = true;
  let segmentStart = 0;
  // UTF-8 bytes beyond one per unit, and the segments that survive normalisation.
  let extraBytes = 0;
  let depth = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return { ok: false, detail: c === 0 ? 'NUL character in path' : 'control character in path' };
    if (c === 0x5c) return { ok: false, detail: 'backslash in path; use / separators relative to the project root' };
    if (c >= 0x80) {
      ascii = false;
      // Two bytes below U+0800; a surrogate is half of a 4-byte pair; three otherwise.
      extraBytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
    } else if (c === 0x25) percent = true;
    else if (c === 0x2f) {
      if (isDotOrEmptySegment(path, segmentStart, i)) plain = false;
      else depth++;
      segmentStart = i + 1;
    }
  }
  if (segmentStart < path.length) {
    if (isDotOrEmptySegment(path, segmentStart, path.length)) plain = false;
    else depth++;
  }
  if (path.length + extraBytes > MAX_PATH_BYTES) return TOO_LONG;
  if (depth > MAX_PATH_SEGMENTS) return TOO_DEEP;
  if (path.charCodeAt(0) === 0x2f) return { ok: false, detail: 'absolute path; pass a path relative to the project root' };
  if (path.charCodeAt(1) === 0x3a && isAsciiLetter(path.charCodeAt(0))) return { ok: false, detail: 'drive-letter path; pass a path relative to the project root' };
  if (percent && ENCODED_SEPARATOR.test(path)) return { ok: false, detail: 'percent-encoded dot, separator or NUL in path' };
  // The Unicode checks and NFC only matter past ASCII (NFC leaves ASCII unchanged).
  if (!ascii) {
    for (const ch of path) {
      if (ch.charCodeAt(0) < 0x80) continue;
      if (FORMAT_CHAR.test(ch)) return { ok: false, detail: 'invisible Unicode format character in path' };
      if (SLASH_OR_DOT_LOOKALIKE.test(ch) || /[./\\:]/.test(ch.normalize('NFKC'))) return { ok: false, detail: 'Unicode look-alike of a path separator or dot' };
    }
  } else if (plain) return { ok: true, path };
  const nfc = ascii ? path : path.normalize('NFC');
  const isDir = nfc.endsWith('/');
  const segments: string[] = [];
  for (const seg of nfc.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return { ok: false, detail: 'parent-directory segment (..) in path' };
    segments.push(seg);
  }
  if (segments.length === 0) return { ok: false, detail: 'path names the project root itself' };
  return { ok: true, path: segments.join('/') + (isDir ? '/' : '') };
}

const TOO_LONG: NormalizedPath = Object.freeze({ ok: false, detail: `path longer than ${MAX_PATH_BYTES} bytes` });
const TOO_DEEP: NormalizedPath = Object.freeze({ ok: false, detail: `path deeper than ${MAX_PATH_SEGMENTS} segments` });

/** True if `path[start, end)` is empty, `.` or `..`. */
function isDotOrEmptySegment(path: string, start: number, end: number): boolean {
  const n = end - start;
  if (n === 0) return true;
  if (n > 2 || path.charCodeAt(start) !== 0x2e) return false;
  return n === 1 || path.charCodeAt(start + 1) === 0x2e;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

const checkPatterns = (field: string, value: readonly string[] | undefined): readonly string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'string')) throw invalidParams(field, 'must be an array of .gitignore patterns.');
  for (let i = 0; i < value.length; i++) {
    // An entry holding newlines is several rules; each line is one pattern.
    for (const line of (value[i] as string).split(/\r?\n/)) {
      if (line.length > MAX_PATTERN_LENGTH) {
        // The pattern is not quoted: whatever was pasted here may be a secret.
        throw invalidParams(`${field}[${i}]`, `holds a pattern of ${line.length} characters; a pattern may have at most ${MAX_PATTERN_LENGTH}.`, {
          index: i,
          length: line.length,
          max: MAX_PATTERN_LENGTH,
        });
      }
    }
  }
  // Paths are matched in NFC (normalizeProjectPath), so a pattern typed in another form, such as
  // NFD `cafe\u0301/` from a macOS file name, must be NFC too or it would silently match nothing.
  // NFC leaves ASCII, and so every gitignore metacharacter, unchanged.
  return value.map((p) => p.normalize('NFC'));
};

/** A boolean option, or undefined when absent (`null`, as JSON writes it, is absent too). */
function optionalFlag(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw wrongKind(field, 'a boolean', value);
  return value;
}

/**
 * Creates a path gate: project-root jail first (`outside_sandbox`), then the never-send defaults
 * and your deny/allow rules with exact .gitignore semantics (`deny_rule`), via the `ignore`
 * package. As in git, a file cannot be re-included when a parent directory is excluded.
 *
 * Refusals: `deny` or `allow` that is not an array of strings, or holding a pattern longer than
 * {@link MAX_PATTERN_LENGTH} characters, is INVALID_PARAMS naming the entry (`deny[2]`). `check()` with a `path` that is not a string (and `checkAll()` with
 * such an item, `paths[3]`) is INVALID_PARAMS; a string that is not a usable path, such as one
 * longer than {@link MAX_PATH_BYTES} bytes or deeper than {@link MAX_PATH_SEGMENTS} segments, is
 * an `outside_sandbox` decision.
 */
export function createPathGate(options: PathGateOptions = {}): PathGate {
  expectOptions(options);
  const deny = checkPatterns('deny', options.deny);
  const allow = checkPatterns('allow', options.allow);
  const matcher = sharedMatcher(optionalFlag(options.defaults, 'defaults') ?? true, optionalFlag(options.ignoreCase, 'ignoreCase') ?? false, deny, allow);

  const check = (path: string): PathDecision => {
    const normalized = normalizeProjectPath(path);
    if (!normalized.ok) return { allowed: false, path, reason: 'outside_sandbox', detail: normalized.detail };
    const rule = matcher.denyingRule(normalized.path);
    if (rule !== undefined) {
      const detail = `${RULE_SOURCE[rule.mark ?? 'deny']} ${JSON.stringify(rule.pattern)}`;
      return { allowed: false, path: normalized.path, reason: 'deny_rule', detail, rule: rule.pattern };
    }
    return { allowed: true, path: normalized.path };
  };

  return {
    check,
    checkAll(paths) {
      expectArray(paths, 'paths');
      for (let i = 0; i < paths.length; i++) if (typeof paths[i] !== 'string') throw wrongItem('paths', i, 'a string', paths[i]);
      const seen = new Set<string>();
      return paths.map((p) => {
        const d = check(p);
        if (!d.allowed) return d;
        if (seen.has(d.path)) return { allowed: false, path: d.path, reason: 'duplicate', detail: 'same normalized path as an earlier candidate' };
        seen.add(d.path);
        return d;
      });
    },
  };
}

/** A deny/allow matcher shared by every gate with the same rules (see {@link sharedMatcher}). */
interface SharedMatcher {
  /** The rule that excludes `path`, or undefined when it is sent. */
  denyingRule(path: string): { pattern: string; mark?: string | undefined } | undefined;
}

const UNNAMED_RULE: { pattern: string; mark?: string } = { pattern: '(unnamed)' };
const LISTED_BY_PATTERN = new Map(DEFAULT_PATH_RULES.map((r) => [r.pattern, r.listed]));

/** How a detail names the rule by where it came from (the mark it was added with; none: the caller's). */
const RULE_SOURCE: Record<string, string> = {
  spec: 'never-send default',
  credentials: 'credential-file default',
  deny: 'deny rule',
};

/**
 * Matchers by their rules, most recently created last. A build passes every path through a gate
 * several times (walking, indexing, the caller's side of buildContext, assembly), each stage with a
 * gate of its own; `ignore` remembers each path's verdict, so stages that share its matcher decide
 * a path once instead of once per stage (measured ~12 ms per stage on a 5,000-file tree). A
 * matcher's verdicts depend only on its rules, so sharing cannot change a decision.
 */
const matchers = new Map<string, { matcher: Ignore; checks: number }>();
/** Rule sets kept at once; the oldest is dropped first. */
const MAX_MATCHERS = 16;
/**
 * Checks after which a matcher is built afresh: `ignore` keeps a verdict for every path and parent
 * directory it was asked about, so a long-lived process checking ever new paths would otherwise
 * keep them all.
 */
const MAX_CHECKS_PER_MATCHER = 100_000;

function sharedMatcher(defaults: boolean, ignoreCase: boolean, deny: readonly string[], allow: readonly string[]): SharedMatcher {
  // Copies: a matcher rebuilt later must have the rules as they were, whatever the caller's
  // arrays hold by then.
  // The defaults carry a mark naming their list; the caller's rules go in as plain strings, as
  // `ignore` has always taken them (an entry holding newlines is several rules).
  const rules = [
    ...(defaults ? DEFAULT_PATH_RULES.map(({ pattern, list }) => ({ pattern, mark: list })) : []),
    ...deny,
    ...allow.map((p) => (p.startsWith('!') ? p : `!${p}`)),
  ];
  const key = JSON.stringify([defaults, ignoreCase, deny, allow]);
  const build = (): { matcher: Ignore; checks: number } => ({ matcher: ignore({ ignorecase: ignoreCase }).add(rules), checks: 0 });
  const current = (): { matcher: Ignore; checks: number } => {
    let entry = matchers.get(key);
    if (entry === undefined || entry.checks >= MAX_CHECKS_PER_MATCHER) {
      matchers.delete(key);
      if (matchers.size >= MAX_MATCHERS) matchers.delete(matchers.keys().next().value!);
      matchers.set(key, (entry = build()));
    }
    return entry;
  };
  // Built now, so a pattern `ignore` rejects throws from createPathGate, as it always has.
  current();
  return {
    denyingRule(path) {
      const entry = current();
      entry.checks++;
      // test() is the walk ignores() makes, with the deciding rule kept.
      const verdict = entry.matcher.test(path);
      // `ignore` names the rule whenever it excludes; should it not, the path stays excluded.
      if (!verdict.ignored) return undefined;
      const rule = verdict.rule ?? UNNAMED_RULE;
      // A default is named as its list writes it, not as the gate matches it.
      return rule.mark === 'spec' || rule.mark === 'credentials' ? { pattern: LISTED_BY_PATTERN.get(rule.pattern) ?? rule.pattern, mark: rule.mark } : rule;
    },
  };
}
