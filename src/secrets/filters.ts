// Host-side judgement the byte engine cannot make: placeholders, vendors' published example
// values, values that are references rather than secrets, and names that say "this is a hash".
// Every check looks at one candidate and a bounded window around it, so the cost stays linear.

import type { FileKind } from './source-path.ts';

/**
 * Version of these judgements, part of a bundle's config fingerprint beside the rule set's: raise
 * it whenever a change here can change what is reported (2: names judged by the words after the
 * keyword; secret-store references, token-replacement stand-ins and 0x addresses; todo, please,
 * lorem as placeholder words; a name read back past the `,` of an argument. 3: keytool's default
 * `changeit` as a stop value; `passwort` and `passe` read as the password keyword; an unquoted
 * name in code is no value; a quoted name's argument only in a call; a fragment of four
 * characters or fewer counts only in one case. 4: an X (Twitter) app-only bearer token is judged on
 * what follows its runs of `A`. 5: with quoted values read to their closing quote, format slots and
 * code in quotes are no values, and a quoted dotted value with digits between letters is one. 6:
 * `<` and `>` mark a stand-in only around a name. 7: an unquoted value that ends its line is read
 * to the end of its token. 8: the name between `<` and `>` is word characters only. 9: an argument
 * of a translation function, or a slug, is no credential. 10: a path-shaped value with a random
 * part is base64, not a path. 11: WordPress keys and JSON Web Key members are judged by
 * isKeyStandIn, not by the placeholder fragments; a JWK's member counts only with a `kty` near it;
 * a quoted value found up to a blank is redacted to its closing quote; a `\=` in an unquoted value
 * is no pair's separator; a positional argument's value is judged without a name. 12: an unquoted
 * dotted value, or one that a `(` or `[` follows, is a value when its shape is generated; a typed
 * declaration's name is read past its type. 13: a quoted default of an environment read is
 * judged on the nearest name holding a keyword, as a typed declaration's; so is shell's
 * `${NAME:-value}`, which ends at its `}` and is not also read as `NAME: -value`). 14: a value of a
 * rule keyed on a statement (`ENV `, `#define `, `; } = `) counts only when its name holds one of
 * the rule's words (nameHolds); a default in Spring's `${name:value}` ends at its `}`. 15: an
 * unquoted value's token leaves out a quote or bracket that closes one opened before the value on
 * its line (`- "DB_PASSWORD=…"`). 16: a connection string's password with no `;` pair around it
 * ranks after the other built-in rules, so the generic rule that found it too names the finding.
 * 17: such a lone password is judged as an assignment (`f(user=u, password=password)` is code),
 * and ends before a `)` or `]` closing a call or list opened before it and at a call's bracket;
 * a value in a query string or form body (its name after `?` or `&`) ends at the next `&` or `#`.
 * 18: code names with acronyms (`HTMLInputElement`) are names; so are, at a line's end, names of
 * secrets assigned in a statement of code (`    password = new_password`), and PHP's member reads
 * (`$request->password`); a value under a name ending in `_KEY` with no kind word (`STRIPE_KEY`)
 * must look generated, and its name must not be a public or lookup key's; a value may open with an
 * escaped quote (`\"…\"`), and a name end with one; vendors' public client keys
 * (`pk_live_`, Mapbox's `pk.eyJ`) and crypt-format password hashes are not secrets.
 * 19: a Go DSN's match is cut to its password (userinfoPassword), which may hold anything
 * printable but a blank or a quote; a value under no name or under one ending in `_PAT` is judged
 * as a `_KEY` one, and may also be a classic Azure DevOps PAT or, nameless, 32 or more hex
 * characters; a Sentry DSN's key is none; GitHub's `TOKEN:x-oauth-basic` redacts the token; a
 * string literal's prefix (Python's `b'…'`, `r"…"`) is no value's name (rule steps 5: nor part of
 * the value), and an f-string that interpolates holds code's value; the name is read past `?=`,
 * `+=`, `|=`, `||=` and `??=`, and of those code's operators (`+=`, `|=`, `||=`, `??=`) assign
 * only a quoted literal (`?:` assigns nothing); a command flag's value counts on its command's
 * line only (continued lines, lines of flags and a command in a variable included); PowerShell's
 * `$env:VAR` is a reference; a value that only repeats its name's words names something when it
 * is a capitals variable name or a code's string literal (`DEV_REGISTRY_SECRET: "MF-Dev-Registry-Secret",`),
 * and an unquoted negated member read of a lowercase object is code (`pass: !this.isNot`).
 * 20: a value after a quoted name is also a call's argument when the name is the second argument of
 * Gradle's `buildConfigField` or `resValue` (with or without parentheses), and the value may open
 * with an escaped quote inside its own (`"\"…\""`); a wallet's recovery phrase is 12 to 24 words of 3 to
 * 8 letters, single-spaced, the whole value, mostly distinct and not a published test phrase
 * (recoveryPhraseEnd, src/secrets/wallet.ts), and no placeholder fragment judges it; the keys after the
 * first in a Hardhat network's `accounts` list are found too (listedKeys); Hardhat's and Anvil's
 * first four development keys are published values.
 * 21: a Go DSN's `://` is a URL scheme's only at the user's first `:` (a password may hold one)
 * and after a driver's name (`app://…` is a user and a password that begins with `//`); with a path
 * naming source code (ScanOptions.path), an unquoted name is code at the end of its line too where
 * code surrounds it (a typed member, a next line that closes a bracket or carries on the
 * expression), and so is a negated one with code after it, not on a comment's line; a Terraform variable's default is judged under the variable's label
 * (variableLabel), which must name a secret.
 * 22: values end where their format ends them, not where the core's class stopped (which left
 * the rest of a password in the text): an unquoted one on a configuration line that opens with its
 * name (`.env`, YAML, INI, `.properties`, a Makefile's, a Dockerfile's `ENV`) at the line's end less
 * a ` #` comment, whatever it holds but another `name=` pair; one in a quoted `"NAME=…"` word at
 * its quote; a `${…}` default at its `}`; an element's text at its closing tag; a quoted one at its
 * closing quote past blanks, non-ASCII and doubled quotes; a connection string's password at its
 * `;` (not an XML entity's); a URL's password at the authority's last `@`; a command's argument
 * at its shell word's end; a query value at its `&` or `#`. Symfony's `%env(…)%`, Maven's `@…@`,
 * `$$VAR` and `%VAR%` are references; phrases such as `change-me` and `wrong-password` stand-ins; a
 * snake_case literal of its name's words in source code (`"client_secret_post"`) names
 * something; the path's kind (source-path.ts, fileKind) makes a translation catalogue's words UI
 * text, and a configuration file's line calls nothing; PowerShell's `$x = Verb-Noun …` calls a
 * cmdlet; and a blank ends an unquoted value on a shell or other line (`PGPASSWORD=… psql`)
 * where the format does not make the line the value.
 * 23: an environment read's default given by keyword (`config('SECRET_KEY', default='…')`,
 * `os.getenv("DB_PASSWORD", default="…")`) is the quoted name's value (isDefaultKeyword); no other
 * keyword argument is; 32 or more lowercase hex characters under a `_KEY` name are a generated key
 * whatever the lengths of their letter and digit runs (one random draw in twenty-five failed the
 * shape test); a property list's `<string>` is named by its `<key>` (plistKeyName), a name/value
 * entry's `value` may carry a namespace prefix (`android:value`), and an Android resource
 * (`@string/maps_api_key`) and a Key Vault reference are references; a password after `user:` in a
 * string being encoded (btoa) is no URN, digest, Relay id or colon list (isEncodedPair) and ends at
 * the string's closing quote (stringLiteralEnd); a credentials file one folder down
 * (`credentials/service-account.json`) is a path; `hasher` names no secret; a rule's name words
 * may be whole names (`^key$`).
 * 24: keyword arguments before `default=` (`config('SECRET_KEY', cast=str, default='…')`), names
 * with a name or a dotted name as their value, are passed over to the quoted name
 * (keywordArgumentsStart).
 * 25: a validation rule list (`required|min:8`) is no value (isValidationRules), nor is code's name
 * for a thing about a secret (`'userPasswordInput'`, isSecretThingName) or a chart's reference to a
 * Kubernetes secret's key (`adminPasswordKey: admin-password`, `existingSecret: …`,
 * isSecretKeyReference); names ending in `variable`, `provider`, `encoder`, `backend`, `store`,
 * `strategy` or `class` name no secret.
 * 26: a quoted value starting with a symbol that would close a string in code (`+`, `)`, `.`, …)
 * is code only when its quote closes one: an odd count of it before on the line (closesString);
 * a UUID is a credential under a credential's name (`SNYK_TOKEN=…`, `HEROKU_API_KEY=…`), an id
 * elsewhere, and RFC 4122's example UUID never one; the core takes a hex key of 16 to 64 digits
 * at 2.8 bits of entropy (isHexKey in assembly/scan/scan.ts).
 * 27: an app password's stand-in of alphabet runs (`abcd efgh ijkl mnop`) is none (isAlphabetGroups).
 * 28: an Authorization header's value that reads as words and does not decode to `user:password`,
 * or decodes to a pair with a stand-in password, is documentation about the header
 * (`Authorization: Basic authentication`, `Basic dXNlcjpwYXNzd29yZA==`, isHeaderProse).
 * 29: a header's pair is documentation only when its password is a default or a stand-in and its
 * user has no digit, and words are runs of 2 to 15 lowercase letters with up to four digits after
 * them; RFC 7617's and MDN's Basic credentials are published examples; a pair's password
 * interpolated in double quotes or backticks (`"api:$key"`, `"api:{$this->key}"`) is no value
 * (isEncodedPair).
 * 30: MinIO's play server key is a published example.
 * 31: a command flag's value that reads as a name in code is a stand-in only if its words name a
 * secret (`MyPassword`, `RootPwd`); a random one that splits into a name's pieces is a password.
 */
export const FILTERS_VERSION = 31;

/** Published documentation values (built by concatenation so no tool mistakes this file for a leak). */
const KNOWN_EXAMPLES = new Set<string>([
  // X (Twitter) API documentation's app-only bearer token.
  'AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid%2BULvsea4JtiGRiSDSJSI%3D' + 'EUifiRBkKG5E2XzMDjRfl76ZC9Ub0wnz4XsNiRVBChTYbJcE3F',
  'AKIA' + 'IOSFODNN7EXAMPLE',
  // MinIO's public play server (play.min.io), in its documentation's `mc alias set play …`.
  'zuf+tfteSlswRu7BJ86wekitnif' + 'ILbZam1KYY3TG',
  // RFC 7617's and MDN's Basic credentials (Aladdin, open sesame).
  'QWxhZGRpbjpvcGVu' + 'IHNlc2FtZQ==',
  'YWxhZGRpbjpvcGVu' + 'c2VzYW1l',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY',
  'sk_test_' + '4eC39HqLyjWDarjtT1zdp7dc',
  'sk_test_' + 'BQokikJOvBiI2HlWgH4olfQ2',
  'sk_test_' + '26PHem9AhJZvU623DfE1x4sd',
  'ghp_' + '16C7e42F292c6912E7710c838347Ae178B4a',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
    'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' +
    'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  // Hardhat's and Anvil's first four development accounts, derived from the public `test … junk`
  // phrase and printed by both at every start, with and without their `0x`, in either case.
  ...['ac0974bec39a17e36ba4a6b4d238ff94' + '4bacb478cbed5efcae784d7bf4f2ff80', '59c6995e998f97a5a0044966f0945389' + 'dc9e86dae88c7a8412f4603b6b78690d', '5de4111afa1a4b94908f83103eb1f170' + '6367c2e68ca870fc3fb9a804cdab365a', '7c852118294e51e653712a81e05800f4' + '19141751be58f605c371e15141b007a6'].flatMap((k) => [k, k.toUpperCase()]).flatMap((k) => [k, `0x${k}`]),
]);

/** Fragments that mark a value as a stand-in (case-insensitive). The core has a copy (valueFlags in assembly/scan/scan.ts). */
export const PLACEHOLDER_FRAGMENTS = [
  'xxxx', 'example', 'placeholder', 'your_', 'your-', 'yourapi', 'yourtoken', 'yoursecret', 'yourpass', 'insert_', 'insert-',
  'redacted', 'dummy', 'changeme', 'change_me', 'replace_me', 'replaceme', '****', '....', '<', '>', '${', '{{', '}}', '%s',
  'todo', 'please', 'lorem',
];
/** The fragments as one pattern, matched against the lowercased value (same answer as testing each). */
const PLACEHOLDER = new RegExp(
  PLACEHOLDER_FRAGMENTS.filter((f) => !isAngle(f))
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);
/**
 * `<` and `>` mark a stand-in only around a name: `<YOUR_API_KEY>`, `sk-<your key>` (letters,
 * digits, `_`, `-`, `.` and blanks between them), or opening a template (`<%= … %>`, `<?php`).
 * Elsewhere they are a generated password's characters (`Xk2<9mP>q…`, `…<!k$>…`). The core flags
 * any value holding one (valueFlags); this side decides.
 */
const ANGLE_STAND_IN = /<[A-Za-z_][\w .-]*>|<[%?]/;
function isAngle(fragment: string): boolean {
  return fragment === '<' || fragment === '>';
}
/** The fragments by their first character (all ASCII), for {@link hasPlaceholderFragment}. */
const FRAGMENTS_BY_FIRST: (string[] | undefined)[] = [];
for (const f of PLACEHOLDER_FRAGMENTS) (FRAGMENTS_BY_FIRST[f.charCodeAt(0)] ??= []).push(f);

/**
 * Whether the letters of value[i, i + n) are all lowercase, all uppercase, or capitalised (the
 * first uppercase and the rest lowercase). The core decides the same (fragmentAt).
 */
function oneCase(value: string, i: number, n: number): boolean {
  let upper = 0;
  let letters = 0;
  for (let k = 0; k < n; k++) {
    const c = value.charCodeAt(i + k);
    const isUpper = c >= 65 && c <= 90;
    if (isUpper || (c >= 97 && c <= 122)) letters++;
    if (isUpper) upper++;
  }
  const first = value.charCodeAt(i);
  return upper === 0 || upper === letters || (upper === 1 && first >= 65 && first <= 90);
}

/** ASCII lowercase of one code unit. */
function lowerUnit(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/**
 * Whether the lowercased value contains a placeholder fragment, without building the lowercased
 * string: fragments are ASCII, and lowercasing maps every other character to non-ASCII ones except
 * U+0130 and U+212A (the only two), so a value holding one takes the lowercase path. A fragment of
 * four characters or fewer counts only in one case ({@link oneCase}): `xxxx`, `XXXX`, `Todo`. A
 * random 36-character token holds a fragment in some mix of case (`xXxx`) about once in 14,000
 * draws, and a well-formed key must not go unreported for it; stand-ins are typed in one case.
 */
export function hasPlaceholderFragment(value: string): boolean {
  const n = value.length;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x130 || c === 0x212a) return PLACEHOLDER.test(value.toLowerCase()) || ANGLE_STAND_IN.test(value);
    const candidates = c < 128 ? FRAGMENTS_BY_FIRST[lowerUnit(c)] : undefined;
    if (candidates === undefined) continue;
    for (const f of candidates) {
      if (i + f.length > n) continue;
      let k = 1;
      while (k < f.length && lowerUnit(value.charCodeAt(i + k)) === f.charCodeAt(k)) k++;
      if (k === f.length && (f.length > 4 || oneCase(value, i, f.length)) && (!isAngle(f) || ANGLE_STAND_IN.test(value))) return true;
    }
  }
  return false;
}

/** Whole values that are defaults or words, not secrets (generic rules and URL passwords). */
const STOP_VALUES = new Set([
  'password', 'passwd', 'pass', 'pwd', 'secret', 'secrets', 'token', 'apikey', 'api_key', 'changeme', 'admin', 'administrator', 'root',
  'guest', 'test', 'testing', 'test1234', 'testpass', 'testpassword', 'default', 'postgres', 'mysql', 'redis', 'rabbitmq', 'mongo', 'user',
  'username', 'none', 'null', 'nil', 'undefined', 'true', 'false', 'required', 'optional', 'string', 'value', 'hunter2', '12345678',
  '123456789', 'qwerty', 'qwertyuiop', 'letmein', 'p@ssw0rd', 'p@ssword', 'password1', 'password123', 'secret123', 'mypassword',
  'mysecret', 'supersecret', 'notasecret', 'sekret', 'foobar', 'foobarbaz', 'abc123', 'abcdefgh', 'welcome1', 'trustno1',
  // Java keystores' well-known default password (keytool -storepass changeit).
  'changeit',
]);

const STOP_VALUE_MAX = Math.max(...[...STOP_VALUES].map((v) => v.length));

/**
 * Whether a whole value is a default or a word ({@link STOP_VALUES}), in any case. Lowercasing never
 * makes a string shorter, so a longer value is none and is not lowercased.
 */
function isStopValue(value: string): boolean {
  return value.length <= STOP_VALUE_MAX && STOP_VALUES.has(value.toLowerCase());
}

/**
 * Words of a name that say its value is not a credential but something about one: a hash, an id,
 * a name, a path, a size, a lifetime, a date, a reference to where it lives. `expir` and `timeout`
 * also end words (`expiry`, `expiresAt`, `sessionTimeout`).
 */
const NON_SECRET_WORD =
  /^(hash|hashed|sha1|sha256|sha512|md5|bcrypt|digest|checksum|integrity|commit|etag|fingerprint|uuid|guid|name|names|path|paths|file|files|dir|directory|url|urls|uri|uris|endpoint|type|types|field|fields|header|headers|format|version|length|len|count|size|ttl|timeout|expir\w*|expires|policy|scope|scopes|prefix|suffix|label|id|ids|ref|refs|arn|env|var|vars|email|changed|updated|created|rotated|min|max|hint|regex|pattern|placeholder|input|limit|manager|hasher|hashers|variable|variables|provider|providers|encoder|backend|store|strategy|class)$/;
/**
 * The keywords the assignment rules find in a name (every KIND in build/rules/generic.mjs, `key`
 * standing for the `*_key` ones), for {@link isNonSecretName}; `pass` takes `word`, `wd`, `wort`, `e` or
 * `phrase` after it.
 */
const NAME_KEYWORDS = ['pass', 'pwd', 'secret', 'credential', 'token', 'key'];
/** What may follow `pass` in the keyword: password, passwd, passphrase; German passwort, French (mot de) passe. */
const PASS_ENDINGS = ['word', 'wd', 'phrase', 'wort', 'e'];

/**
 * Whether a name says its value is not a credential. What a name is comes from its last word (the
 * head: `PASSWORD_FILE` is a file, `FILE_PASSWORD` a password), so only the words after the last
 * keyword are judged: `ACCOUNT_PASSWORD`, `spring.security.user.password` and `HASHICORP_VAULT_TOKEN`
 * are credentials, `TOKEN_TTL_SECONDS`, `passwordHash` and `api_key_env` are not. A keyword that runs
 * on into a longer lowercase word is no keyword (`tokenizer`, `secretary`, `secretsmanager`,
 * `passwordhash`); a plural (`tokens`, `credentials`) still is. A name with no keyword (a pair's
 * entry name) is judged on all its words. Most names end with their keyword and cost a few
 * `lastIndexOf` calls (this runs for every generic candidate).
 */
export function isNonSecretName(name: string): boolean {
  // Names repeat across a project (DB_PASSWORD, apiToken, "password"): each is judged once.
  let verdict = NAME_VERDICTS.get(name);
  if (verdict === undefined) {
    if (NAME_VERDICTS.size >= MAX_NAME_VERDICTS) NAME_VERDICTS.clear();
    NAME_VERDICTS.set(name, (verdict = judgeName(name)));
  }
  return verdict;
}

/** Verdicts of {@link isNonSecretName} by name: a pure function of the name, so kept. */
const NAME_VERDICTS = new Map<string, boolean>();
/** Names kept at once (a name is at most 160 characters); the map starts over when full. */
const MAX_NAME_VERDICTS = 4096;

function judgeName(name: string): boolean {
  const lower = name.toLowerCase();
  let end = -1;
  let embedded = false;
  for (const k of NAME_KEYWORDS) {
    let at = lower.lastIndexOf(k);
    // `pass` ending a word that is no password's (`BYPASS`, `compass`) is no keyword: the one
    // before it may be (`PASSWORD_BYPASS`). `storepass`, `requirepass` and `smtpPass` are passwords' names.
    while (k === 'pass' && at > 0 && endsNonPasswordWord(lower, at)) {
      embedded = true;
      at = lower.lastIndexOf(k, at - 1);
    }
    if (at < 0) continue;
    let e = at + k.length;
    if (k === 'pass') e += PASS_ENDINGS.find((ending) => lower.startsWith(ending, e))?.length ?? 0;
    if (e > end) end = e;
  }
  if (end < 0) return embedded || words(name).some((w) => NON_SECRET_WORD.test(w));
  if (end === name.length) return false;
  // The keyword's own word goes on in lowercase (not a plural's `s` at a boundary): a compound.
  if (isLowerAt(name, end)) {
    const plural = name.charCodeAt(end) === 0x73 && !isLowerAt(name, end + 1);
    if (!plural) return true;
  }
  return words(name.slice(end)).some((w) => NON_SECRET_WORD.test(w));
}

/** Words ending in `pass` that name no password. */
const NOT_PASS_WORDS = ['bypass', 'compass', 'encompass', 'surpass', 'trespass', 'overpass', 'underpass'];

/** Whether the `pass` at `at` in a lowercased name ends one of {@link NOT_PASS_WORDS}. */
function endsNonPasswordWord(lower: string, at: number): boolean {
  return NOT_PASS_WORDS.some((w) => at + 4 >= w.length && lower.startsWith(w, at + 4 - w.length));
}

function isLowerAt(s: string, i: number): boolean {
  return isIn(LOWER, s.charCodeAt(i));
}

/** The words of an identifier, lowercase: split at `_`, `.`, `-` and camelCase humps. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.\-]+/)
    .filter((w) => w !== '');
}

const REFERENCE = /^(process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|env\.|env\[|ENV\[|System\.getenv|Deno\.env|config\.|settings\.|secrets\.|vars\.|self\.|this\.|props\.|ctx\.|context\.|req\.|request\.|params\.|options\.|opts\.|args\.)/;
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/;
/**
 * Digits between letters (`Xk29mPq7zL`). A quoted dotted value is a key or a path of names
 * (`"auth.form.password"`, `"spring.datasource.password"`) unless a part holds them: then it is a
 * generated password with a `.` in it. Unquoted, code has such names (`this.s3Client.token`).
 */
const INNER_DIGIT = /[A-Za-z]\d+[A-Za-z]/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Names under which a UUID is a credential: many services issue tokens and keys as UUIDs (Heroku's
 * API key, Snyk's, Codecov's and Rollbar's tokens, Bugsnag's and Segment's keys). Under any other
 * name (an `_KEY` of a cache or an idempotency key, a bare `key`) it is taken for an id.
 */
const CREDENTIAL_NAME = /pass|pwd|secret|token|credential|api[-_.]?key|auth[-_.]?key|access[-_.]?key/i;
/** Whether a name says its UUID is a credential ({@link CREDENTIAL_NAME}). */
export function namesCredential(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}
/** RFC 4122's example UUID, which documentation copies. */
const DOCUMENTATION_UUID = '123e4567-e89b-12d3-a456-426614174000';
const PATH_LIKE = /^(\/|\.\.?\/|~\/|[A-Za-z]:\\)|^[\w.-]+\/[\w.-]+\/|^[\w.-]+\/[\w-]+\.(?:json|pem|key|p12|pfx|crt|cer|jks|yaml|yml|txt|env)$/;
const INTEGRITY = /^(sha1|sha256|sha384|sha512)-/i;
/**
 * A format or template slot in a value: `{name}`, `{0}`, `{}` (Python's format and f-strings, C#'s
 * interpolation, Rust's format!), `%(name)s` (Python's % formatting). The value is filled in when
 * the program runs; the secret is not in it. Quoted values run to their closing quote, so these
 * reach the judgement with what is around them (`f"{prefix}{secret}"`).
 */
const FORMAT_SLOT = /\{[\w.$:[\]-]*\}|%\(\w+\)[a-z]/;
// Code, not a value, though it follows a quote:
/** First characters that say the quote before them closed a string and code goes on (`"… token: "+n);switch…`). */
const CLOSED_STRING = asciiSet('+,);]}.:');
/** A call with a string or no argument, in a string (`url('./icon.png')`, `getToken()`). */
const CALL_IN_QUOTES = /[\w$]\(['"`)]/;
/** A regex class with a range, in a string (`[A-Za-z0-9._~+/-]+=*`). */
const RANGE_CLASS = /\[[^\]]*[A-Za-z0-9]-[A-Za-z0-9][^\]]*\]/;
/**
 * `$VAR`, `$VAR/…`, `${…}`, `$(…)`: a shell or template reference; PowerShell's `$env:VAR`. A
 * value such as `$mkz4H*00…` is not one.
 */
const DOLLAR_REFERENCE = /^\$(\{|\(|[Ee]nv:\w+$|[A-Za-z_]\w*(\/|$))/;

/** Lengths of the published examples: most values skip the set lookup (which hashes the value). */
const KNOWN_EXAMPLE_LENGTHS = new Set([...KNOWN_EXAMPLES].map((v) => v.length));
/**
 * {@link isPlaceholder} for a value the core has already looked at (`hint` from its records): 0 and
 * 2 say whether an ASCII value holds a fragment or a run of six (the same test on its bytes), 1
 * leaves the string to this side.
 */
export function isPlaceholderHinted(value: string, structural: boolean, hint: number): boolean {
  // The core's run of six may be an X bearer token's run of `A`s, and its `<` or `>` a password's
  // own character (see ANGLE_STAND_IN): this side judges those.
  if (hint === 1 || (hint === 2 && (value.startsWith(TWENTY_AS) || value.includes('<') || value.includes('>')))) return isPlaceholder(value, structural);
  if (KNOWN_EXAMPLE_LENGTHS.has(value.length) && KNOWN_EXAMPLES.has(value)) return true;
  return !structural && hint === 2;
}

/** True when a value looks like a stand-in rather than a credential (any rule). */
export function isPlaceholder(value: string, structural: boolean): boolean {
  if (KNOWN_EXAMPLE_LENGTHS.has(value.length) && KNOWN_EXAMPLES.has(value)) return true;
  // Long structural matches (private keys) legitimately contain runs such as AAAAAA.
  if (structural) return false;
  const xBearer = xBearerStandIn(value);
  if (xBearer !== undefined) return xBearer;
  if (hasPlaceholderFragment(value)) return true;
  // A run of six identical characters: `sk-aaaaaa…`, `000000…`. Random tokens almost never have one.
  return hasRunOfSix(value);
}

const TWENTY_AS = 'A'.repeat(20);
/**
 * X (Twitter) app-only bearer tokens: twenty-odd `A`s, then the rest of a base64 binary key
 * (whose zero bytes make more runs of `A`), URL-encoded (`%2B`, `%3D`), about 110 characters.
 */
const X_BEARER = /^A{20,}[A-Za-z0-9%]+$/;
/** Characters after the last run of `A`s in a real X bearer token: about 80 of the key's random part. */
const X_BEARER_MIN_TAIL = 40;

/**
 * For a value in the shape of an X bearer token, whether it is a stand-in, judged on what follows
 * its last run of six or more `A`s: the part that is random in a real token, and where a stand-in
 * shows (`AAAA…xxxx`, `AAAA…AAAA`). Those runs are the format, not a stand-in. Undefined for a
 * value of any other shape.
 */
export function xBearerStandIn(value: string): boolean | undefined {
  if (!value.startsWith(TWENTY_AS) || !X_BEARER.test(value)) return undefined;
  let end = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    run = value.charCodeAt(i) === 65 ? run + 1 : 0;
    if (run >= 6) end = i + 1;
  }
  const tail = value.slice(end);
  return tail.length < X_BEARER_MIN_TAIL || hasPlaceholderFragment(tail) || hasRunOfSix(tail);
}

/**
 * Whether six consecutive code units are equal. Such a run covers some index m divisible by 5 and
 * the one after it, so only those pairs are compared, and a pair that matches is widened.
 */
function hasRunOfSix(value: string): boolean {
  const n = value.length;
  for (let m = 0; m + 1 < n; m += 5) {
    const c = value.charCodeAt(m);
    if (value.charCodeAt(m + 1) !== c) continue;
    let lo = m;
    let hi = m + 1;
    while (lo > 0 && value.charCodeAt(lo - 1) === c) lo--;
    while (hi + 1 < n && value.charCodeAt(hi + 1) === c) hi++;
    if (hi - lo >= 5) return true;
  }
  return false;
}

/**
 * Values that say where a secret lives or stand for one, not the secret: cloud secret-store
 * references (`arn:aws:secretsmanager:…`, `vault:secret/…`, `ssm:/…`), build-time token
 * replacement (`__DB_PASSWORD__`, `#{DbPassword}#`, Maven's resource filtering `@db.password@` and
 * `@@DB_PASSWORD@@`), Symfony's environment parameters (`%env(APP_SECRET)%`,
 * `%env(resolve:JWT_SECRET_KEY)%`), a Windows batch variable (`%API_TOKEN_PROD%`), a variable's `$`
 * escaped as `$$` by Compose and Make (`$$MYSQL_ROOT_PASSWORD`, `$${DB_PASSWORD}`); each with a
 * name's shape (Maven's lowercase and dotted, the others' capitals), as `$$k9Fq2LmX7vPz`, a
 * password that opens with a `$` escaped for Compose, has not; an Android resource
 * (`@string/maps_api_key`, `@android:string/ok`), which a manifest's attribute names; an App Service
 * Key Vault reference (`@Microsoft.KeyVault(VaultName=…;SecretName=…)`); and a 20-byte
 * `0x` address (Ethereum contracts and accounts: public; a 32-byte private key is longer).
 */
const LOCATION_OR_STAND_IN =
  /^(arn:aws[\w-]*:|vault:|ssm:|secretsmanager:|azurekeyvault:|keyvault:)|^(__[A-Za-z0-9_]+__|#\{[\w.-]+\}#|@[a-z][a-z0-9]*(?:[.-][a-z0-9]+)+@|@@[A-Z_][A-Z0-9_]*@@|%env\([\w:.-]+\)%|%[A-Z_][A-Z0-9_]*%|\$\$(?:\{[A-Za-z_]\w*\}|[A-Z_][A-Z0-9_]*)|@(?:android:)?[a-z]+\/[a-z][a-z0-9_.]*)$|^@Microsoft\.KeyVault\(|^0x[0-9a-fA-F]{40}$/;

/**
 * Values published or stored in a secret's place, not the secret: a client key its vendor means to
 * be public (Stripe's publishable `pk_live_`/`pk_test_`, Mapbox's public `pk.eyJ…`; their secret
 * keys are `sk_` and `sk.`), and a password hash in crypt's formats (bcrypt's `$2b$12$…`,
 * `$argon2id$…`), which is what a server keeps instead of the password. An unquoted argon2 hash
 * reaches the judgement cut at its first `,` (the core's value stops there), so its parameters'
 * head (`$argon2id$v=19$m=65536`) is judged on its own too.
 */
const PUBLIC_OR_HASHED = /^(?:pk_(?:live|test)_[0-9A-Za-z]{10,}|pk\.eyJ[\w-]*\.[\w-]+|\$2[abxy]?\$\d\d\$[./0-9A-Za-z]{53}|\$argon2(?:id|i|d)\$v=\d+\$m=\d+(?:,t=\d+,p=\d+\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,})?)$/;

/**
 * True when an assigned value is a reference to a secret or a stand-in for one (see
 * LOCATION_OR_STAND_IN), or what is published or stored in a secret's place (PUBLIC_OR_HASHED).
 */
export function isSecretReference(value: string): boolean {
  return LOCATION_OR_STAND_IN.test(value) || PUBLIC_OR_HASHED.test(value);
}

/**
 * Where a generic value's name is read: right before it (`assigned`: `name = value`, `name: value`,
 * a name/value entry); as the nearest name holding a keyword (`declared`: past a type, `apiKey:
 * string = "…"`, or before an environment read's fallback, `process.env.API_KEY || "…"`; see
 * {@link declaredName}); as the label of the Terraform variable block that holds it (`label`,
 * `variable "db_password" { … default = "…" }`; see {@link variableLabel}: a value in no such block
 * is none);
 * or nowhere (`none`: an argument by position, `jwt.sign(payload, '…')`, whose left neighbour is
 * another argument).
 */
export type NameReading = 'assigned' | 'declared' | 'label' | 'none';

/**
 * True when a generic `name = value` candidate is not a secret; `reading` says where its name is,
 * and `words`, when there are any, what the name must hold (see {@link nameHolds}); `file`, what
 * the text's path says it is (fileKind): in `source` code unquoted names and snake_case literals
 * of the name's words are code (see {@link isCodeReference}, {@link echoesName}), in
 * `translations` words are UI text, and in a `config` file a line calls nothing.
 */
export function isNonSecretAssignment(text: string, start: number, end: number, reading: NameReading = 'assigned', words: readonly string[] = [], file: FileKind = 'unknown', command = false): boolean {
  const source = file === 'source';
  if (isShellDefaultMisread(text, start)) return true;
  // An environment read's fallback (`?:` in PHP and Kotlin) is read as 'declared', not here.
  if (reading === 'assigned' && !assignsLiteral(text, start)) return true;
  const value = text.slice(start, end);
  if (isSecretReference(value)) return true;
  if (isStopValue(value)) return true;
  // Each pattern only where it can match: a dotted name has a dot, a UUID 36 characters, a path a
  // slash or backslash (cheap checks first; the answer is the same).
  const slash = value.includes('/') || value.includes('\\');
  // A UUID is an id, unless its name says it is a credential (below).
  const uuid = value.length === 36 && UUID.test(value);
  if (
    REFERENCE.test(value) ||
    (value.includes('.') && isDottedReference(text, start, value)) ||
    (uuid && (reading === 'none' || value.toLowerCase() === DOCUMENTATION_UUID)) ||
    (slash && isPathLike(value)) ||
    INTEGRITY.test(value)
  ) {
    return true;
  }
  if (DOLLAR_REFERENCE.test(value) || value.includes('://')) return true;
  // A negated member read in code (`pass: !this.isNot`, `!!info.flag`): unquoted, of a lowercase
  // object, with a name's shape. `!Winter.Is.Coming` and a quoted `'!summer.vacation'` are passwords.
  if (value.charCodeAt(0) === 0x21 && !isIn(QUOTES, text.charCodeAt(start - 1)) && isNegatedMember(value)) return true;
  if (isSlotOrQuotedCode(text, start, value)) return true;
  if (value.includes('{') && isFormattedString(text, start)) return true;
  if (isCodeReference(text, start, end, value, source, command)) return true;
  // A configuration file's line calls nothing: `DB_PASSWORD=NsZS4PFe86t3(WKcAK)F` in `.env` is a password.
  if (isCallOrIndex(text, end, value) && !(file === 'config' && configLineHead(text, start) !== undefined)) return true;
  if (isStandInOrText(value, file)) return true;
  if (reading === 'none') return false;
  const found = reading === 'declared' ? declaredName(text, start) : reading === 'label' ? labelName(text, start) : assignedName(text, start);
  if (found === undefined) return true;
  const { name, at } = found;
  if (words.length > 0 && !nameHolds(name, words)) return true;
  // `scheme://name:value@host` is URL userinfo, which the URL rules judge.
  if (at >= 3 && text.slice(at - 3, at) === '://') return true;
  if (uuid && !namesCredential(name)) return true;
  return name !== '' && (isNonSecretName(name) || isSecretKeyReference(name, value) || echoesName(text, start, end, name, value, source));
}

/**
 * A validation rule list (Laravel's `'password' => 'required|string|min:8|confirmed'`): rule names
 * joined by `|`, some with arguments after `:`, one of them a rule every such list has.
 */
export function isValidationRules(value: string): boolean {
  return value.includes('|') && VALIDATION_LIST.test(value) && VALIDATION_RULE.test(value);
}
const VALIDATION_LIST = /^[a-z_]+(?::[^|\s]*)?(?:\|[a-z_]+(?::[^|\s]*)?)+$/;
const VALIDATION_RULE = /(?:^|\|)(?:required|nullable|sometimes|bail|confirmed|string|min|max)(?=[:|]|$)/;

/**
 * A value that is code's name for a thing about a secret, not one: letters only, in words (camelCase
 * or joined by `-` or `_`), one of them a secret's word and the last a thing of a form or a
 * program (`'userPasswordInput'`, `'passwordConfirmation'`, `'InvalidTokenException'`,
 * `password_confirmation`). A weak password made of its name's words (`AdminPassword`,
 * `postgres_password`) ends with the secret's word and stays a value.
 */
export function isSecretThingName(value: string): boolean {
  // Its last word first, read without a regex or a copy of the value: this runs for most candidates.
  const n = value.length;
  if (n > 64) return false;
  let i = backOver(LOWER, value, n, 0);
  if (i > 0 && isIn(UPPER, value.charCodeAt(i - 1))) i--;
  if (n - i < 4 || i === 0 || !CODE_THINGS.has(value.slice(i).toLowerCase()) || !LETTER_WORDS.test(value)) return false;
  return hasSecretWord(value);
}
/** Letters, perhaps in words joined by `-` or `_`. */
const LETTER_WORDS = /^[A-Za-z]+(?:[-_][A-Za-z]+)*$/;
/** The last word of a form's or a program's name for a thing: a field, a widget, an error, an action. */
const CODE_THINGS = new Set([
  'input', 'field', 'form', 'label', 'widget', 'container', 'component', 'button', 'toggle', 'modal', 'dialog', 'placeholder', 'hint',
  'exception', 'error', 'errors', 'confirmation', 'confirm', 'validator', 'validation', 'mismatch', 'strength', 'reset', 'changed',
  'required', 'missing', 'expired', 'invalid', 'visibility', 'badge', 'icon',
]);

/**
 * A Kubernetes secret's key or name given in a chart's values, where the secret lives: under a name
 * whose last words are a password's and `key` (`adminPasswordKey`, `existingSecretPasswordKey`,
 * `password_key`, `passwordSecretKey`) or whose first word is `existing` (Bitnami's
 * `existingSecret`), a lowercase name joined by `-` or `_` (`admin-password`,
 * `my-release-postgresql`). `secret_key` alone names a key itself.
 */
export function isSecretKeyReference(name: string, value: string): boolean {
  // Cheap tests first, with no copy (this runs for every named candidate): the name ends with `key`
  // or starts with `existing`, in any case.
  if (!holdsWordAt(name, 'key', name.length - 3) && !holdsWordAt(name, 'existing', 0)) return false;
  if (value.length > 64 || !LOWER_KEY_NAME.test(value)) return false;
  const nameWords = words(name);
  const n = nameWords.length;
  if (n >= 2 && nameWords[0] === 'existing') return true;
  if (n < 2 || nameWords[n - 1] !== 'key') return false;
  return PASSWORD_WORD.test(nameWords[n - 2]!) || (n >= 3 && nameWords[n - 2] === 'secret' && PASSWORD_WORD.test(nameWords[n - 3]!));
}
/** Whether `name` holds the lowercase `word` at `at`, in any case, compared code unit by code unit. */
function holdsWordAt(name: string, word: string, at: number): boolean {
  if (at < 0 || at + word.length > name.length) return false;
  for (let k = 0; k < word.length; k++) if ((name.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}
/** A lowercase key or object name: `admin-password`, `redis_password`, `my-release-postgresql`. */
const LOWER_KEY_NAME = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$/;
/** A password's word in a name. */
const PASSWORD_WORD = /^(?:password|passwd|pwd|pass|passphrase)$/;

/**
 * Stand-ins written as phrases, which the placeholder fragments do not hold: `change-me`,
 * `change-me-in-production`, `replace_me`, a fixture's `test-password`, `wrong-password`,
 * `invalid-token`, `fake-api-key`, and `not-a-real-secret`: words only after the phrase (and a
 * short number), so `test-secret-8f3a9c…` is still a value.
 */
const STAND_IN_PHRASE =
  /^(?:(?:change|replace)[-_ ]?me|(?:fake|wrong|invalid|incorrect|bad|test|sample|mock)[-_ ](?:pass(?:word)?|secret|token|key|api[-_ ]?key|credentials?)s?|not[-_ ]a[-_ ]real)(?:[-_ ][a-z]+)*(?:[-_ ]?\d{1,2})?$/i;
/** UI text in a translation catalogue: letters of any script and the punctuation of prose, no digits. */
const UI_WORDS = /^[\p{L}\p{M}][\p{L}\p{M} '’.,:;!?¿¡«»“”()-]*$/u;

/**
 * A stand-in written as a phrase ({@link STAND_IN_PHRASE}), or in a translation catalogue words of
 * any script (`Contraseña`, `Wachtwoord`, `Confirmer le mot de passe`), which are UI text; also
 * code's text about a secret: a validation rule list ({@link isValidationRules}) or a name for a
 * thing ({@link isSecretThingName}).
 */
export function isStandInOrText(value: string, file: FileKind): boolean {
  return STAND_IN_PHRASE.test(value) || (file === 'translations' && UI_WORDS.test(value)) || isValidationRules(value) || isSecretThingName(value) || isAlphabetGroups(value);
}

/**
 * An app password's stand-in, `abcd efgh ijkl mnop`: groups of four letters, each a run of the
 * alphabet, split by single blanks (the form generic-password-app-password reads).
 */
function isAlphabetGroups(value: string): boolean {
  if (value.length !== 19 || value.charCodeAt(4) !== 0x20) return false;
  for (let g = 0; g < 19; g += 5) {
    for (let k = g + 1; k < g + 4; k++) if (value.charCodeAt(k) !== value.charCodeAt(k - 1) + 1) return false;
  }
  return true;
}

/**
 * Whether the value at `start`..`end` is a string literal in code: quoted, and after its closing
 * quote (and blanks) a `,` or `;`, as an object's member or a statement ends, or in a JavaScript
 * declaration (`const USE_CREDENTIALS = 'use-credentials'`, which may end without a `;`).
 */
function isCodeLiteral(text: string, start: number, end: number): boolean {
  const q = text.charCodeAt(start - 1);
  if (!isIn(QUOTES, q) || text.charCodeAt(end) !== q) return false;
  let i = end + 1;
  while (i < end + 8 && isIn(SPACE_TAB, text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  if (c === 0x2c || c === 0x3b) return true;
  return DECLARATION.test(text.slice(lineStart(text, start - 1, Math.max(0, start - 160)), start));
}

/** Where the line holding `i` starts, or `floor` if that comes first. */
function lineStart(text: string, i: number, floor: number): number {
  while (i > floor && text.charCodeAt(i - 1) !== 0x0a) i--;
  return i;
}

/** A JavaScript declaration's start: `const X = `, `export let x = `. */
const DECLARATION = /^\s*(?:export\s+)?(?:const|let|var)\s/;

/** `!member.read` or `!!member.read` of a lowercase object, not generated ({@link hasGeneratedShape}). */
function isNegatedMember(value: string): boolean {
  const read = negatedOperand(value);
  return NEGATED_OBJECT.test(read) && isDottedName(read);
}

/** What a `!` or `!!` at a value's start negates. */
function negatedOperand(value: string): string {
  return value.slice(value.charCodeAt(1) === 0x21 ? 2 : 1);
}

/** A member read's object as code names it: a lowercase letter, `_` or `$` first. */
const NEGATED_OBJECT = /^[a-z_$]/;

/**
 * Whether a value only repeats its name's words, as the name of a variable or a header does:
 * `DATA_PROXY_SECRET: "MINIFLARE_PROXY_SECRET"` (a variable's name, in capitals), and as a code's
 * string literal ({@link isCodeLiteral}), `DEV_REGISTRY_SECRET: "MF-Dev-Registry-Secret",`
 * and `const USE_CREDENTIALS = 'use-credentials';` (words joined by `-`, as headers are written),
 * and in `source` code (ScanOptions.path) a quoted snake_case value, as constants of code name a
 * mode or a grant (`CLIENT_SECRET_POST = "client_secret_post"`).
 * One of its words is a secret's, and at least two of its words and half of them are the name's.
 * Configuration writes weak passwords that way too, so there they stay values:
 * `POSTGRES_PASSWORD=postgres_password`, `MYSQL_ROOT_PASSWORD: "mysql-root-password"`; so does a
 * value that shares one word (`DB_PASSWORD="Summer-Password"`).
 */
export function echoesName(text: string, start: number, end: number, name: string, value: string, source = false): boolean {
  if (value.length > 96) return false;
  // A capitals variable name anywhere; else a string literal of code: quoted (the cheapest test,
  // and most values are not), of words, in source code or ending as a code's literal does.
  if (!VARIABLE_NAME.test(value)) {
    if (!isIn(QUOTES, text.charCodeAt(start - 1))) return false;
    if (!(DASHED_WORDS.test(value) && isCodeLiteral(text, start, end)) && !(source && SNAKE_NAME.test(value))) return false;
  }
  const valueWords = words(value);
  if (!valueWords.some((w) => SECRET_WORDS.has(w))) return false;
  const nameWords = new Set(words(name));
  const shared = valueWords.filter((w) => nameWords.has(w)).length;
  return shared >= 2 && shared * 2 >= valueWords.length;
}

/** A variable's name in capitals: `MINIFLARE_PROXY_SECRET`. */
const VARIABLE_NAME = /^[A-Z]+(?:_[A-Z]+)+$/;
/** Words joined by `-`: `MF-Dev-Registry-Secret`, `access-control-allow-credentials`. */
const DASHED_WORDS = /^[A-Za-z]+(?:-[A-Za-z]+)+$/;

/**
 * Whether the value at `start` is a Python f-string's (`f"…"`, `rf'…'`): one with a `{` interpolates
 * (`token = f"{os.environ['GITHUB_TOKEN']}"`), and what it holds comes from code.
 */
export function isFormattedString(text: string, start: number): boolean {
  if (start < 1 || !isIn(QUOTES, text.charCodeAt(start - 1))) return false;
  const prefix = text.slice(stringPrefixStart(text, start - 1, 0), start - 1);
  return prefix.includes('f') || prefix.includes('F');
}

/**
 * Where a string literal's prefix (Python's `b'…'`, `r"…"`, `rb'…'`, `f"…"`) starts before the
 * quote at `quote`: one or two of its letters after a separator (so the end of a name such as
 * `"rb"` is none). `quote` itself when there is none.
 */
function stringPrefixStart(text: string, quote: number, floor: number): number {
  let p = quote;
  while (p > floor && quote - p < 2 && isIn(STRING_PREFIX, text.charCodeAt(p - 1))) p--;
  return p < quote && p > floor && isIn(SEPARATOR, text.charCodeAt(p - 1)) ? p : quote;
}

/**
 * Whether the operator before an assignment's value (at `start`) gives it a value written there.
 * The generic rules take `?`, `+` and `|` before `=` or `:` (build/rules/generic.mjs, ASSIGN_OP):
 * - `?:` is TypeScript's optional member, whose "value" is its type, or an Elvis fallback: no;
 * - `+=`, `|=`, `||=` and `??=` are code's operators: yes for a quoted literal only (a code
 *   statement appending or defaulting to a name, `tokens += OVERHEAD`, holds no secret);
 * - Makefile's `?=` and the plain operators (`=`, `:`, `:=`, `=>`): yes.
 */
export function assignsLiteral(text: string, start: number): boolean {
  const floor = Math.max(0, start - 16);
  let i = start;
  // Back over the value's opening quote (perhaps escaped, perhaps after a string prefix) and blanks.
  let quoted = false;
  if (i > floor && isIn(QUOTES, text.charCodeAt(i - 1))) {
    quoted = true;
    i--;
    if (i > floor && text.charCodeAt(i - 1) === 0x5c) i--;
    else i = stringPrefixStart(text, i, floor);
  }
  i = backOver(SPACE_TAB, text, i, floor);
  const j = backOver(ASSIGN_CHARS, text, i, floor);
  if (j === i || j === floor || !isIn(ASSIGN_OP, text.charCodeAt(j - 1))) return true;
  if (text.charCodeAt(i - 1) !== 0x3d) return false;
  // Makefile's `?=` alone is configuration's; `??=` is C#'s.
  if (text.charCodeAt(j - 1) === 0x3f && text.charCodeAt(j - 2) !== 0x3f) return true;
  return quoted;
}

/**
 * Whether an assignment's value found at `start` is shell's default for an unset variable read as
 * `NAME:` then `-value` (`${DB_PASSWORD:-value}`): the shell-default rules read that value, without
 * the `-`, so this reading is no finding.
 */
export function isShellDefaultMisread(text: string, start: number): boolean {
  return text.charCodeAt(start) === 0x2d && followsShellDefault(text, start + 1) && opensPlaceholder(text, start - 1);
}

/** Whether the name right before the `:` at `colon` is a placeholder's: `${name:`. */
function opensPlaceholder(text: string, colon: number): boolean {
  const { name, at } = nameBefore(text, colon, Math.max(0, colon - 64));
  return name !== '' && at >= 2 && text.charCodeAt(at - 1) === 0x7b && text.charCodeAt(at - 2) === 0x24;
}

/**
 * A value that is a file path (`/run/secrets/db`, `./keys/jwt.pem`, `config/keys/app.key`, a
 * credentials file one folder down such as `credentials/service-account.json`), not a secret.
 * Base64 has slashes too: `Su5FMSgqHtcQ7Wo4ZrKsRkvr8Ex/bpY6JGamab857jo/` fits the shape,
 * so a part of 12 or more characters mixing upper and lower case and digits, as random base64
 * does and path names do not, makes it a value again (about one 44-character base64 key in ten
 * was taken for a path).
 */
export function isPathLike(value: string): boolean {
  if (!PATH_LIKE.test(value)) return false;
  for (const part of value.split(/[/\\]/)) {
    if (part.length >= 12 && /[A-Z]/.test(part) && /[a-z]/.test(part) && /\d/.test(part)) return false;
  }
  return true;
}

/**
 * A dotted name used as a value (`config.db.password`, `"auth.form.password"`): a reference, not a
 * secret. A quoted one with digits between letters in a part is a generated password with a `.`;
 * an unquoted one is when its shape is generated ({@link hasGeneratedShape}: `.env`, YAML, INI and
 * XML values are not quoted, and a generated password has a `.` as often as any other symbol).
 */
export function isDottedReference(text: string, start: number, value: string): boolean {
  if (!DOTTED_IDENTIFIER.test(value)) return false;
  return isIn(QUOTES, text.charCodeAt(start - 1)) ? !INNER_DIGIT.test(value) : !hasGeneratedShape(value);
}

/** A dotted name with a name's shape, not a generated one: an unquoted {@link isDottedReference}. */
function isDottedName(value: string): boolean {
  return DOTTED_IDENTIFIER.test(value) && !hasGeneratedShape(value);
}

/**
 * The pieces names are made of: a lowercase run, a capitalised word, an uppercase run (not the
 * capital of the word after it), a digit run.
 */
export const NAME_PIECE = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;

/**
 * Whether a value's letters and digits are cut into the short pieces of a generated string rather
 * than the words of a name: at least five pieces ({@link NAME_PIECE}), under three characters each
 * on average. `Xk9vQ2mL7pR4.tW8z` is 16 pieces; `config.db.password` is 3 and `this.s3Client.token`
 * 5 of 3.2 characters. Measured (scratch probe, 2026-11-24): base62 strings of 12 characters with a
 * `.` inside pass 96.8% of the time (of 16: 98.8%, of 8: 67%); of 297,121 distinct dotted and
 * called names of 8 or more characters in installed packages' sources, 1.07% pass, and then only
 * where a secret's name and value tests hold too.
 */
export function hasGeneratedShape(value: string): boolean {
  // NAME_PIECE's matches counted in one pass over the code units, without a match object each
  // (this runs for candidates by the thousand; a test checks it against the pattern).
  let pieces = 0;
  let chars = 0;
  const n = value.length;
  let i = 0;
  while (i < n) {
    const c = value.charCodeAt(i);
    let j = i + 1;
    // A lowercase run, a capital and the lowercase run after it, a capital run (NAME_PIECE leaves
    // its last capital to lowercase letters after it, which makes two pieces of the same letters
    // either way), a digit run.
    const set = isIn(LOWER, c) ? LOWER : isIn(UPPER, c) ? (isLowerAt(value, j) ? LOWER : UPPER) : isIn(DIGITS, c) ? DIGITS : undefined;
    if (set !== undefined) {
      while (j < n && isIn(set, value.charCodeAt(j))) j++;
    } else {
      i = j;
      continue;
    }
    pieces++;
    chars += j - i;
    i = j;
  }
  return pieces >= 5 && chars < 3 * pieces;
}

/**
 * A value with a format slot ({@link FORMAT_SLOT}), or code in quotes ({@link CLOSED_STRING},
 * {@link CALL_IN_QUOTES}, {@link RANGE_CLASS}). Each pattern runs only when the value holds the
 * character it needs (this runs for every generic candidate).
 */
export function isSlotOrQuotedCode(text: string, start: number, value: string): boolean {
  if ((value.includes('{') || value.includes('%(')) && FORMAT_SLOT.test(value)) return true;
  if (!isIn(QUOTES, text.charCodeAt(start - 1))) return false;
  if (isIn(CLOSED_STRING, value.charCodeAt(0)) && closesString(text, start - 1)) return true;
  return (value.includes('(') && CALL_IN_QUOTES.test(value)) || (value.includes('[') && RANGE_CLASS.test(value));
}

/**
 * Whether the quote at `quote` closes a string rather than opening one: an odd number of the same
 * quote, unescaped, stands before it on its line (`"Enter password: "+pwd`, a minified
 * `{a:"password: "+n)`), where `password: "+Hq7v…"` and `{"password": ".Hq7v…"}` open a value
 * that starts with a symbol. A line longer than CLOSING_SCAN before the quote (a minified bundle's)
 * is taken as closing, as all were before this was counted.
 */
function closesString(text: string, quote: number): boolean {
  const q = text.charCodeAt(quote);
  const floor = Math.max(0, quote - CLOSING_SCAN);
  let quotes = 0;
  let i = quote - 1;
  for (; i >= floor; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) break;
    if (c === q && text.charCodeAt(i - 1) !== 0x5c) quotes++;
  }
  if (i < floor && floor > 0) return true;
  return (quotes & 1) === 1;
}
/** How far back {@link closesString} counts quotes on a line. */
const CLOSING_SCAN = 512;

/**
 * A name made of words, as code names variables, types and constants: camelCase or PascalCase
 * (`firstCodePoint`, `EndOfFileToken`, `AsyncIterable`), snake_case or UPPER_SNAKE (`access_token`,
 * `MESSAGE_TOKEN_OVERHEAD`), perhaps with a bundler's `$1` or a short number at the end, then
 * perhaps a member chain (`result.groups?.password`). At least two words, each a capital and
 * lowercase letters or a lowercase run: a random value almost never splits that way.
 * With acronyms (`HTMLInputElement`, `IDataType`, `getAPIToken`) or a one-letter prefix
 * (`kEnumerableProperty`), the words must be longer: a capitalised first word has two lowercase
 * letters or more, and an acronym and every later word stand before a capital and three. Measured on random base62 values
 * (scratch probe, 2026-11-25), that form adds 0.26 points to the 0.52% of 12-character values
 * that read as names (0.05 to 0.10% at 16), where every looser form tried added 0.5 to 2.6.
 * Each alternative ends where only it can (an acronym before a capital and a lowercase letter),
 * so the pattern does not backtrack over a long capital run.
 */
const CODE_NAME =
  /^(?:(?:[a-z]{2,}|[A-Z][a-z]+)(?:[A-Z][a-z]+|_[a-z]{2,})+|[A-Z][a-z]+[A-Z][a-z]+|[A-Z]{2,}(?:_[A-Z]{2,})+|(?:[a-z]+|[A-Z][a-z]{2,}|[A-Z]+(?=[A-Z][a-z]{3}))(?:[A-Z][a-z]{3,}|[A-Z]{2,}(?=[A-Z][a-z]{3}))+)\$?\d{0,2}(?:\??\.[A-Za-z_$][\w$]*)*$|^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;

/** A PowerShell cmdlet's Verb-Noun name (`Read-Host`, `ConvertTo-SecureString`, `Get-AzKeyVaultSecret`). */
const CMDLET = /^[A-Z][a-z]+(?:To|From)?-[A-Z][A-Za-z0-9]+$/;
/** A PowerShell variable's assignment before a value (`$password = `, `$env:TOKEN = `). */
const POWERSHELL_ASSIGNMENT = /\$[\w:]+[ \t]*=[ \t]*$/;
/** A PHP variable and the `-` of the `->` after it (`$request-`, `$this-`). */
const PHP_MEMBER_READ = /^\$[A-Za-z_]\w*-$/;

const CODE_OPERATOR = /\?\.[A-Za-z_$]|\|\||&&|[=!]==/;

/**
 * True when an unquoted value is a name in code, not a literal: `endOfFileToken: EndOfFileToken,`
 * in a type, `lastToken = firstCodePoint;`, `tokens: AsyncIterable<number>`. A secret in code is a
 * quoted literal; an unquoted one belongs to .env, YAML, INI or properties lines, where the value
 * runs to the end of the line (or a `#` comment). So the value must be a {@link CODE_NAME} and
 * what follows it on the line must be code (`,` `;` `<` `)` an operator …); a value at the end of
 * its line is still judged as a secret, whatever its shape (`PASSWORD=CorrectHorseBatteryStaple`).
 * An unquoted value with an operator only code writes (`options?.token`, `a||b`, `x===y`) is code
 * wherever it stands. So is, at the end of its line, a name that itself names a secret
 * ({@link namesSecret}: `new_password`, `hashedPassword`) assigned in a statement only code writes
 * ({@link isCodeStatement}: `self.password = password_hash`, `@password = user_password`,
 * `secret := clientSecret`, and in a function's body `    password = new_password`). And so is PHP
 * reading a member, `$request->password`, and PowerShell calling a cmdlet (`$password = Read-Host …`).
 *
 * In `source` code (the caller knows the file: ScanOptions.path), where code surrounds the value
 * as only code does, a name is code at the end of its line too: a typed member's type
 * (`readonly credentials: RequestCredentials`, `private config: TokenConfig`), and a value whose
 * next line closes a bracket or carries on the expression (an object's last member before `})`, a
 * condition before `? a : b`); and a negated name with code after it (`!questionToken && …`). Not
 * on a comment's line, and not otherwise: source files hold text too (comments, docstrings,
 * `.env` lines in a template string), where `DB_PASSWORD=SuperSecret99` is the secret, and
 * {@link CODE_NAME} reads about one random 12-character value in 200 as a name.
 */
export function isCodeReference(text: string, start: number, end: number, value: string, source = false, command = false): boolean {
  if (isIn(QUOTES, text.charCodeAt(start - 1))) return false;
  if (source && isSourceName(text, start, end, value, command)) return true;
  // PHP reading a member, `$request->password`: the core's value stops at the `>`.
  if (text.charCodeAt(end) === 0x3e && PHP_MEMBER_READ.test(value)) return true;
  // PowerShell calling a cmdlet: `$password = Read-Host -AsSecureString`, `ConvertTo-SecureString …`.
  if (CMDLET.test(value) && POWERSHELL_ASSIGNMENT.test(text.slice(lineStart(text, start, Math.max(0, start - 128)), start))) return true;
  // Operators only code writes, wherever the line ends: optional chaining, `||`, `&&`, `===`,
  // `!==` (base64 pads with at most two `=`). The pattern runs only on a value holding one of
  // their characters (this runs for every unquoted generic candidate).
  if (hasAny(value, OPERATOR_CHARS) && CODE_OPERATOR.test(value)) return true;
  // What follows on the line first: it is cheaper than the name's pattern, and ends most checks.
  // A generated shape is a value wherever it stands (`<password>Xk9vQ2mL.7pR4</password>`): of
  // CODE_NAME's forms only a dotted one can have it.
  if (endsLine(text, end)) {
    // The statement first: a line of configuration fails it at its first characters.
    const statement = isCodeStatement(text, start);
    if (statement === NOT_CODE || !namesSecret(value) || (statement === INDENTED && !SNAKE_NAME.test(value))) return false;
  }
  return isCodeName(value, command);
}

/**
 * A {@link CODE_NAME} that does not look generated ({@link hasGeneratedShape}). With `command`, the
 * value is a flag's argument on a command line (a 'command' rule's), where no variable is named
 * bare: a name there is a stand-in only if its words say what it stands for (`MyPassword`,
 * `SuperSecret`, `RootPwd`: {@link SECRET_WORDS}). Otherwise it is a password whose characters
 * happen to split into a name's pieces: measured on random base62 values after `mysql -p`, 3.45%
 * of 10 characters, 0.65% of 12 and 0.10% of 16 were missed that way (scratch probe, 2026-11-25).
 */
function isCodeName(value: string, command = false): boolean {
  return CODE_NAME.test(value) && !hasGeneratedShape(value) && (!command || hasSecretWord(value));
}

/**
 * For {@link isCodeReference} in source code: whether an unquoted value is a name by what surrounds
 * it (see there). Cheap checks first; the name's pattern last.
 */
function isSourceName(text: string, start: number, end: number, value: string, command = false): boolean {
  const head = text.slice(lineStart(text, start, Math.max(0, start - 256)), start);
  if (COMMENT_LINE.test(head)) return false;
  // A negated name, with code after it on its line (`&&`, `||`, `)`, `;`).
  if (value.charCodeAt(0) === 0x21) return !endsLine(text, end) && isCodeName(negatedOperand(value), command);
  if (!endsLine(text, end)) return false;
  if (!TYPED_MEMBER.test(head) && !CONTINUED.test(text.slice(end, end + 256))) return false;
  return isCodeName(value, command);
}

/** A line that opens with a comment: `#`, `//`, `/*`, `*` (a block comment's), `--`, `;`, `<!--`. */
const COMMENT_LINE = /^\s*(?:#|\/\/|\/\*|\*|--|;|<!--)/;
/**
 * A class or interface member with a modifier before its name, up to its type's `:` (TypeScript's
 * `readonly x:`, `private x?:`, `public static x:`): what follows is a type.
 */
const TYPED_MEMBER = /^\s*(?:(?:readonly|private|public|protected|static|declare|override|abstract)\s+)+[\w$]+\??\s*:\s*$/;
/**
 * After a value that ends its line: the next line that is not blank opens with a closing bracket
 * or carries on an expression (`?`, `:`, `.`, `,`, `&&`, `||`, `+`), as code's lines do and a
 * configuration's do not.
 */
const CONTINUED = /^[^\n]*\n(?:[ \t]*\r?\n)*[ \t]*(?:[)\]}]|\?|:|\.(?!\.)|,|&&|\|\||\+)/;

/** A lowercase snake_case name of two words or more: a Python or Ruby local (`new_password`). */
const SNAKE_NAME = /^[a-z]+(?:_[a-z]+)+$/;

/**
 * Whether a value, with no digit in it, has a word that is one of the words secrets are named
 * with ({@link KIND_WORDS}, `key` and `keys`): `new_password`, `hashedPassword`, `password_hash`, `clientSecret`,
 * but not `keyboard_cat` or `passage`. A name of that shape is a variable holding a secret, or about
 * one; a credential seldom spells out what it is, and a generated one has digits.
 */
function namesSecret(value: string): boolean {
  if (/\d/.test(value)) return false;
  return words(value).some((word) => SECRET_WORDS.has(word) || word === 'keys');
}

/** Whether one of `value`'s words ({@link words}) is a word secrets are named with ({@link SECRET_WORDS}). */
function hasSecretWord(value: string): boolean {
  return words(value).some((w) => SECRET_WORDS.has(w));
}

/** What {@link isCodeStatement} finds before a value. */
const NOT_CODE = 0;
/** A statement only code writes: an object's own member, a sigilled variable, Go's `:=`. */
const CODE = 1;
/** `name = value` in an indented line: a function's body, or an indented configuration file's. */
const INDENTED = 2;
/** The receivers of a method's own members: Python's `self.` and `cls.`, `this.` elsewhere. */
const OWN_MEMBER = /^(?:self|cls|this)\./;

/**
 * How the value at `start` is assigned: `name = value` (or Go's `:=`) with blanks around the
 * operator. CODE when only code writes it so: the name is a method's own member or a sigilled
 * variable (`self.password`, `this.password`, `@password`, `$password`, `$this->password`), or the
 * operator is `:=` and the name has a lowercase letter (Go; a Makefile's names are capitals).
 * INDENTED when the line is indented, which a function's body is but so are an indented INI,
 * HOCON or git-config file's lines: the caller asks more of the value there. NOT_CODE otherwise:
 * `.env`, INI and properties lines start at their name (`DB_PASSWORD=…`, `db.password = …`), and
 * YAML assigns with `:`.
 */
function isCodeStatement(text: string, start: number): number {
  const floor = Math.max(0, start - 160);
  let i = start;
  if (i <= floor || !isIn(BLANKS, text.charCodeAt(i - 1))) return NOT_CODE;
  i = backOver(SPACE_TAB, text, i, floor);
  if (i <= floor || text.charCodeAt(i - 1) !== 0x3d) return NOT_CODE;
  i--;
  const walrus = i > floor && text.charCodeAt(i - 1) === 0x3a;
  if (walrus) i--;
  const operator = i;
  i = backOver(SPACE_TAB, text, i, floor);
  if (i === operator || i <= floor) return NOT_CODE;
  const nameEnd = i;
  i = backOver(NAME, text, i, floor);
  if (i === nameEnd) return NOT_CODE;
  const name = text.slice(i, nameEnd);
  if (OWN_MEMBER.test(name) || (walrus && /[a-z]/.test(name))) return CODE;
  const before = i > 0 ? text.charCodeAt(i - 1) : 0x0a;
  // A sigil (`@password`, `$password`) or PHP's member arrow (`$this->password`).
  if (before === 0x40 || before === 0x24 || (before === 0x3e && text.charCodeAt(i - 2) === 0x2d)) return CODE;
  // Indented: blanks back to the line's start.
  const j = backOver(SPACE_TAB, text, i, 0);
  return j < i && (j === 0 || text.charCodeAt(j - 1) === 0x0a || text.charCodeAt(j - 1) === 0x0d) ? INDENTED : NOT_CODE;
}

/** Whether only blanks, then the end of the line or of the text or a `#` comment, follow `i`. */
function endsLine(text: string, i: number): boolean {
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  if (i >= text.length) return true;
  const next = text.charCodeAt(i);
  return next === 0x0a || next === 0x0d || next === 0x23;
}

/**
 * True when an unquoted value is a name that code calls or indexes (`getPassword()`, `keys[0]`,
 * `Buffer.from(…)`): the core's value class stops at `(` and `[`, and the value is what came
 * before. A generated value ({@link hasGeneratedShape}) with a `(` or `[` in it is a password
 * (`password: Xk9vQ2mL7pR4(tW8z` in YAML), read on by unquotedValueEnd, unless the bracket it
 * opens closes on its line, as a call's does: names with acronyms and digits can have a generated
 * shape (`getUInt8Buffer(options.secret ?? "")`). A password with a `(` and a `)` after it is left
 * to that judgement.
 */
export function isCallOrIndex(text: string, end: number, value: string): boolean {
  const next = text.charCodeAt(end);
  if (next !== 0x28 && next !== 0x5b) return false;
  return !hasGeneratedShape(value) || closesOnLine(text, end);
}

/** Whether the bracket at `open` closes on its line, within 256 characters. */
function closesOnLine(text: string, open: number): boolean {
  const limit = Math.min(text.length, open + 256);
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return false;
    if (c === 0x28 || c === 0x5b) depth++;
    else if ((c === 0x29 || c === 0x5d) && --depth === 0) return true;
  }
  return false;
}

/** The characters of {@link CODE_OPERATOR}'s operators. */
const OPERATOR_CHARS = asciiSet('?|&=');

/** Whether any code unit of `value` is in the ASCII set. */
function hasAny(value: string, set: Uint8Array): boolean {
  for (let k = 0; k < value.length; k++) if (isIn(set, value.charCodeAt(k))) return true;
  return false;
}

/**
 * Where an unquoted assignment value ends. A .env, YAML, INI or properties value runs to the end of
 * its line, but the core's value class stops at blanks, brackets, separators and quotes (in code,
 * code goes on after them): `password: Xk29)mPq7zL` was found as `Xk29` and its tail left in the
 * text. By what stands around the value:
 * - a default inside `${…}` (shell's `${DB_PASSWORD:-…}`, Spring's `${api.key:…}`) runs to its `}`;
 * - an element's text right after its opening tag (`<password>…</password>`) to the closing tag;
 * - on a line that opens with the value's name ({@link CONFIG_LINE_HEAD}), see {@link configLineEnd}:
 *   in a configuration format the rest of the line, elsewhere the rest of the value's word;
 * - in a `"NAME=value"` word (`docker run -e "…"`, systemd's `Environment="…"`), see {@link quotedPairEnd};
 * - otherwise, when nothing but blanks or a `#` comment follows the token on its line, the value is
 *   the whole token, less the same closers, unless it goes on with `name=value` pairs. Else, and
 *   for quoted values (see {@link quotedValueEnd}), the end is the core's.
 */
export function unquotedValueEnd(text: string, start: number, end: number, file: FileKind = 'unknown'): number {
  if (end >= text.length || isIn(QUOTES, text.charCodeAt(start - 1))) return end;
  const stop = text.charCodeAt(end);
  if (stop === 0x0a || stop === 0x0d) return end;
  if (inBraceDefault(text, start)) return braceDefaultEnd(text, start, end);
  const limit = Math.min(text.length, start + VALUE_LOOK);
  if (text.charCodeAt(start - 1) === 0x3e && OPENING_TAG.test(text.slice(Math.max(0, start - 128), start))) {
    // An element's text: to `</` on the same line, blanks included.
    for (let i = end; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || c === 0x0d) break;
      if (c === 0x3c) return text.charCodeAt(i + 1) === 0x2f ? i : end;
    }
  }
  const config = configLineEnd(text, start, end, file);
  if (config >= 0) return config;
  const quoted = quotedPairEnd(text, start, end);
  if (quoted > end || isIn(SPACE_TAB, stop)) return quoted;
  let e = end;
  while (e < limit && !isIn(BLANKS, text.charCodeAt(e)) && !(text.charCodeAt(e) === 0x3c && text.charCodeAt(e + 1) === 0x2f)) e++;
  let i = e;
  if (text.charCodeAt(i) === 0x3c) {
    // Past the closing tag (a bounded look: this runs per candidate).
    const tagEnd = Math.min(text.length, i + 64);
    while (i < tagEnd && text.charCodeAt(i) !== 0x3e) i++;
    if (i === tagEnd) return end;
    i++;
  }
  if (!endsLine(text, i)) return end;
  e = withoutEnclosingClosers(text, start, end, e);
  // More `name=value` pairs after a separator: a connection string or a list, whose values the
  // rules find one by one (`Password=…;Encrypt=true`). A `\=` is a .properties value's own `=`.
  for (let k = end; k < e; k++) if (text.charCodeAt(k) === 0x3d && text.charCodeAt(k - 1) !== 0x5c) return end;
  return e;
}

/**
 * A configuration line's head, before its value: indentation, perhaps a YAML list item's `- ` or
 * shell's `export `, a name (`DB_PASSWORD`, `db.password`, `api-key`), then `=`, `:` or a
 * Makefile's `:=`, `?=`, `+=`; or a Dockerfile's legacy `ENV NAME value`.
 */
const CONFIG_LINE_HEAD = /^[ \t]*(?:(?:-[ \t]+)?(?:export[ \t]+)?[\w.-]+[ \t]*(?:[:?+]?=|:)|ENV[ \t]+[\w.-]+)[ \t]*$/;
/**
 * Heads whose value is the rest of the line in any file: a Dockerfile's legacy `ENV NAME value`
 * and a Makefile's `:=`, `?=`, `+=`.
 */
const LINE_VALUE_HEAD = /^[ \t]*ENV[ \t]|[:?+]=[ \t]*$/;
/**
 * With no path, the heads of YAML and INI (`name: `, `name = `): their value is the rest of the
 * line. `NAME=value` with nothing around the `=` is also shell's, where a blank ends the value and a
 * command follows (`PGPASSWORD=… psql -h db`).
 */
const SPACED_HEAD = /(?:[^\s=]:|[ \t]=)[ \t]*$/;
/** How far the value ends read a line, before and after the value's start (they run per candidate). */
const VALUE_LOOK = 256;
/** An element's opening tag right before a value (`<password>`, `<add key="x">`), not PHP's `=>`. */
const OPENING_TAG = /<[A-Za-z][\w:.-]*(?:\s[^<>]*)?>$/;

/**
 * Where an unquoted value ends on a line that opens with its name, or -1 on any other line. In a
 * configuration format (`file` is `config` or `translations`; with no path, a YAML or INI head, `name: `
 * or `name = `; a Dockerfile's `ENV NAME value` and a Makefile's `:=` anywhere) the value is the
 * rest of the line, as dotenv, YAML's plain scalars, INI and `.properties` read it: blanks, `=`,
 * `&` and `;` inside it are its own (`django-insecure-…&*9…@t@7=8)…`, `two words`); it ends before
 * a ` #` or ` ;` comment, a word that opens another pair after a blank (`password=… user=bob`),
 * trailing blanks, a lone closing bracket of a flow mapping opened on an earlier line (`{ … }`), and
 * what ends a statement or closes a string opened before it on the line ({@link withoutEnclosingClosers}).
 * Elsewhere (shell, Markdown, code, `NAME=value` with no path) a blank ends the value: the value is
 * the rest of its word, less the same closers, unless the word holds another pair after a `;` or `&`
 * (`Password=…;Server=db`). Past {@link VALUE_LOOK} characters with no end, the core's.
 */
function configLineEnd(text: string, start: number, end: number, file: FileKind): number {
  const head = configLineHead(text, start);
  if (head === undefined) return -1;
  const wholeLine = file === 'config' || file === 'translations' || LINE_VALUE_HEAD.test(head) || (file === 'unknown' && SPACED_HEAD.test(head));
  const limit = Math.min(text.length, start + VALUE_LOOK);
  let e = end;
  // Length of a name after a separator (-1: none since): then an `=` opens another pair.
  let pair = -1;
  for (; e < limit; e++) {
    const c = text.charCodeAt(e);
    if (c === 0x0a || c === 0x0d) break;
    if (wholeLine) {
      if ((c === 0x23 || c === 0x3b) && isIn(SPACE_TAB, text.charCodeAt(e - 1))) break;
    } else if (isIn(SPACE_TAB, c)) break;
    pair = nextPairName(pair, c, wholeLine ? SPACE_TAB : PAIR_SEPARATORS);
    if (pair === PAIR_OPENED) return end;
  }
  if (e === limit && limit < text.length && !isIn(BLANKS, text.charCodeAt(e))) return end;
  e = backOver(SPACE_TAB, text, e, end);
  // A flow mapping's or list's closer standing alone after the value, opened on an earlier line.
  if (wholeLine && e - 2 >= end && isIn(FLOW_CLOSERS, text.charCodeAt(e - 1)) && isIn(SPACE_TAB, text.charCodeAt(e - 2))) e = backOver(SPACE_TAB, text, e - 1, end);
  return backOver(SPACE_TAB, text, withoutEnclosingClosers(text, start, end, e), end);
}

/**
 * The head of the line before `start` when the line opens with the value's name
 * ({@link CONFIG_LINE_HEAD}): `DB_PASSWORD=`, `  password: `, `export API_KEY=`; else undefined.
 */
function configLineHead(text: string, start: number): string | undefined {
  const from = lineStart(text, start, Math.max(0, start - VALUE_LOOK));
  if (from > 0 && text.charCodeAt(from - 1) !== 0x0a) return undefined;
  const head = text.slice(from, start);
  return CONFIG_LINE_HEAD.test(head) ? head : undefined;
}

/** What {@link nextPairName} returns at an `=` that opens another `name=value` pair. */
const PAIR_OPENED = -2;

/**
 * One step of reading a value for another `name=value` pair after it (`password=… user=bob`,
 * `Password=…;Server=db`): `state` is the length of the name read since one of `separators` (-1
 * when there is none), `c` the next character. A name opens with a letter and has two characters
 * or more, so a generated value's `&*9zd(…=` or `;x=` is still the value's.
 */
function nextPairName(state: number, c: number, separators: Uint8Array): number {
  if (isIn(separators, c)) return 0;
  if (state < 0) return -1;
  if (c === 0x3d) return state >= 2 ? PAIR_OPENED : -1;
  if (state === 0 ? isIn(LETTERS, c) : isIn(NAME, c)) return state + 1;
  return -1;
}

/**
 * Where an unquoted value in a quoted `"NAME=value"` word ends: at the quote that opened before the
 * name, on the same line (an escaped one when the opening was escaped). Blanks are the value's own
 * where the word sets a variable ({@link ENV_WORD_BEFORE}: `docker run -e "DB_PASSWORD=…"`,
 * systemd's `Environment="…"`, cmd's `set "…"`, Compose's `- "…"`); elsewhere the word may be a
 * command (`sh -c "PGPASSWORD=… psql …"`) and a blank ends the value. A later `name=` after a
 * blank, `&` or `;` is another pair: then, as with no such quote, the end is the core's.
 */
function quotedPairEnd(text: string, start: number, end: number): number {
  if (text.charCodeAt(start - 1) !== 0x3d) return end;
  const { name, at } = nameBefore(text, start, Math.max(0, start - 160));
  const quote = text.charCodeAt(at - 1);
  if (name === '' || at !== start - 1 - name.length || !isIn(QUOTES, quote)) return end;
  const escaped = text.charCodeAt(at - 2) === 0x5c;
  const opening = escaped ? at - 2 : at - 1;
  const blanks = ENV_WORD_BEFORE.test(text.slice(lineStart(text, opening, Math.max(0, opening - 128)), opening));
  const limit = Math.min(text.length, start + VALUE_LOOK);
  let pair = -1;
  for (let i = end; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return end;
    if (c === 0x5c) {
      if (escaped && text.charCodeAt(i + 1) === quote) return i;
      i++;
    } else if (c === quote) return escaped ? end : i;
    else if (!blanks && isIn(SPACE_TAB, c)) return i;
    pair = nextPairName(pair, c, PAIR_SEPARATORS);
    if (pair === PAIR_OPENED) return end;
  }
  return end;
}

/**
 * What stands before a quoted word that sets a variable: docker's `-e`, `--env`, `--build-arg`,
 * gcloud's `--set-env-vars`, systemd's `Environment=`, or the word alone on its line after a YAML
 * list item's `- `, cmd's `set` or `export`.
 */
const ENV_WORD_BEFORE = /(?:^|[\s,[(])(?:-e|--env|--build-arg|--set-env-vars?)[ \t=]*$|(?:^|\s)Environment=$|^[ \t]*(?:-[ \t]+|set[ \t]+|export[ \t]+)?$/;

/**
 * Where a value judged as an assignment ends on a configuration line that opens with its name (see
 * {@link configLineEnd}); on any other line, at `end`.
 */
export function configValueEnd(text: string, start: number, end: number, file: FileKind = 'unknown'): number {
  const e = configLineEnd(text, start, end, file);
  return e < 0 ? end : e;
}

/** Whether `start` follows a default's operator inside `${name…}`: `:-`, `:=`, `-`, `=` or Spring's `:`. */
function inBraceDefault(text: string, start: number): boolean {
  let j = start;
  if (text.charCodeAt(j - 1) === 0x2d || text.charCodeAt(j - 1) === 0x3d) j--;
  if (text.charCodeAt(j - 1) === 0x3a) j--;
  return j < start && opensPlaceholder(text, j);
}

/**
 * The end of a default inside `${…}`: its `}` on the same line (the core's class stops before
 * brackets, separators and quotes the default may hold). A nested `${` or no `}` within
 * {@link VALUE_LOOK} characters: the core's end.
 */
function braceDefaultEnd(text: string, start: number, end: number): number {
  const limit = Math.min(text.length, start + VALUE_LOOK);
  for (let i = end; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7d) return i;
    if (c === 0x0a || c === 0x0d || (c === 0x7b && text.charCodeAt(i - 1) === 0x24)) return end;
  }
  return end;
}

/**
 * Where a connection string's password among its `;` pairs ends when the core stopped inside it:
 * ADO.NET and ODBC keep blanks and brackets inside a value (`Password=two words;`, `a>b{c`), which
 * runs to the next `;` less trailing blanks; the string's closing quote, an XML tag and the line's
 * end end it too. The `;` of an XML entity is the value's own (`Password=a&amp;b;` in a
 * web.config). The core's value class stopped at the first of those, so the rest of the password
 * was left in the text. Only in a connection string, with another `name=value` pair before the
 * password's `;` or after its end (`cd /app; PASSWORD=… ./run.sh` is a command), and not past a
 * blank that opens another pair (a log's `password=… user=bob`); past {@link VALUE_LOOK}
 * characters with no end, the core's end.
 */
export function pairValueEnd(text: string, start: number, end: number): number {
  const limit = Math.min(text.length, start + VALUE_LOOK);
  let e = end;
  let pair = -1;
  for (; e < limit; e++) {
    const c = text.charCodeAt(e);
    if (c === 0x3b) {
      if (!XML_ENTITY.test(text.slice(Math.max(start, e - 9), e))) break;
    } else if (isIn(PAIR_VALUE_ENDS, c)) break;
    pair = nextPairName(pair, c, SPACE_TAB);
    if (pair === PAIR_OPENED) return end;
  }
  if (e === end || (e === limit && limit < text.length)) return end;
  if (!pairBefore(text, start) && !pairAfter(text, e)) return end;
  return backOver(SPACE_TAB, text, e, end);
}

/** Whether the `;` pair before the one whose value starts at `start` holds an `=` (`Server=db;`). */
function pairBefore(text: string, start: number): boolean {
  const floor = Math.max(0, start - VALUE_LOOK);
  let k = start - 1;
  while (k > floor && text.charCodeAt(k) !== 0x3b && text.charCodeAt(k) !== 0x0a) k--;
  if (text.charCodeAt(k) !== 0x3b) return false;
  for (let i = k - 1; i >= floor; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x3d) return true;
    if (c === 0x3b || c === 0x0a || isIn(QUOTES, c)) return false;
  }
  return false;
}

/** Whether a `;` at `e` is followed by another `name=` pair (`;Server=db`). */
function pairAfter(text: string, e: number): boolean {
  if (text.charCodeAt(e) !== 0x3b) return false;
  let i = e + 1;
  while (isIn(SPACE_TAB, text.charCodeAt(i))) i++;
  const from = i;
  while (i < e + 64 && (isIn(NAME, text.charCodeAt(i)) || text.charCodeAt(i) === 0x20)) i++;
  return i > from && text.charCodeAt(i) === 0x3d;
}

/** An XML character entity's name before its `;` (`&amp`, `&lt`, `&#38`, `&#x26`). */
const XML_ENTITY = /&(?:amp|lt|gt|quot|apos|#\d{1,6}|#x[0-9A-Fa-f]{1,5})$/;

/**
 * Where a URL's password ends when the core stopped at an `@` that is not the last in the URL's
 * authority: a password with a raw `@` (`postgres://app:a@b@db/app`), which URL parsers (WHATWG,
 * Python's urlsplit, Go's net/url) split at the last `@`. The authority ends at `/`, `?`, `#`, a
 * backslash (JSON's `\/`), a blank, a quote or a bracket; within {@link VALUE_LOOK} characters.
 */
export function userinfoEnd(text: string, end: number): number {
  if (text.charCodeAt(end) !== 0x40) return end;
  const limit = Math.min(text.length, end + VALUE_LOOK);
  let last = end;
  for (let i = end + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x40) last = i;
    else if (c < 0x21 || isIn(AUTHORITY_ENDS, c)) break;
  }
  return last;
}

/**
 * Where the string literal holding the value at `start` opened: the quote before the `user:` in
 * front of it (within 128 characters, on its line), or -1.
 */
function pairStringOpening(text: string, start: number): number {
  const floor = Math.max(0, start - 128);
  for (let i = start - 1; i >= floor; i--) {
    const c = text.charCodeAt(i);
    if (isIn(QUOTES, c)) return i;
    if (c === 0x0a || c === 0x0d) return -1;
  }
  return -1;
}

/**
 * For a password after `user:` in a string being encoded (`btoa('admin:…')`, `b64encode(b'api:…')`,
 * the value at `start`): false when the password is interpolated, or the pair is something else
 * written with a colon: a URN or a scheme's or digest's prefix (`urn:…`, `data:…`, `sha256:…`), a
 * Relay global id (`btoa('Organization:5f8d…')`: a capitalised type, then hex or digits), or a list
 * of colon-separated parts (`cache:v2:users:…`, a MAC address): a password holds a second colon
 * rarely.
 */
export function isEncodedPair(text: string, start: number, value: string): boolean {
  const open = pairStringOpening(text, start);
  if (open < 0) return false;
  // In double quotes or backticks, `$name`, `${…}` and PHP's `{$…}` are interpolated: the password
  // is a variable's (`"$this->user:$this->password"`, `"api:{$this->apiKey}"`). In single quotes
  // a `$` is the password's own character.
  if (text.charCodeAt(open) !== 0x27 && (value.startsWith('$') || value.startsWith('{$'))) return false;
  const user = text.slice(open + 1, start - 1);
  if (PAIR_SCHEMES.has(user.toLowerCase())) return false;
  if (RELAY_TYPE.test(user) && RELAY_ID.test(value)) return false;
  const colon = value.indexOf(':');
  return colon < 0 || value.indexOf(':', colon + 1) < 0;
}

/** Prefixes written with a colon that name no user: URNs, schemes, digests. */
const PAIR_SCHEMES = new Set(['urn', 'data', 'blob', 'file', 'http', 'https', 'mailto', 'tel', 'ipfs', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']);
/** A Relay global id's type: one capitalised word or several (`User`, `PullRequest`). */
const RELAY_TYPE = /^(?:[A-Z][a-z]+)+$/;
/** A Relay global id's key: hex (a Mongo ObjectId), digits or a UUID. */
const RELAY_ID = /^(?:[0-9a-f]+|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/;

/**
 * Where a password after `user:` in a string literal ends: at the string's closing quote (the one
 * that opened it, {@link pairStringOpening}), past backslash-escaped quotes, which code strings
 * have in either quote; the core's class stopped at any quote. Never before the core's end, on
 * the value's line, within {@link VALUE_LOOK} characters.
 */
export function stringLiteralEnd(text: string, start: number, end: number): number {
  const open = pairStringOpening(text, start);
  return open < 0 ? end : closingQuote(text, end, Math.min(text.length, start + VALUE_LOOK), text.charCodeAt(open), true, end);
}

/**
 * The first `quote` from `from` on, before `limit`, on the same line; a backslash escapes the
 * character after it when `escapes` (code's strings, shell's double quotes; not shell's single
 * ones). `otherwise` when a line break or the limit comes first.
 */
function closingQuote(text: string, from: number, limit: number, quote: number, escapes: boolean, otherwise: number): number {
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) return i;
    if (c === 0x0a || c === 0x0d) return otherwise;
    if (c === 0x5c && escapes) i++;
  }
  return otherwise;
}

/**
 * Where a command-line argument's value ends (a flag's value, curl's `-u user:password`): at the
 * end of its shell word, which the core's value class may stop short of (`-pa,b`, `-u 'u:a@b'`,
 * `-u u:a#b`). A word opened by a quote runs to the matching quote on its line (past
 * backslash-escaped ones in double quotes); an unquoted one to a blank, a quote or one of the
 * shell's operators. Never before the core's end; within {@link VALUE_LOOK} characters.
 */
export function shellWordEnd(text: string, start: number, end: number): number {
  const floor = Math.max(0, start - 128);
  let k = start;
  while (k > floor && !isIn(WORD_BREAKS, text.charCodeAt(k - 1))) k--;
  const quote = text.charCodeAt(k - 1);
  const limit = Math.min(text.length, start + VALUE_LOOK);
  if (k > 0 && isIn(QUOTES, quote)) return closingQuote(text, end, limit, quote, quote === 0x22, end);
  let e = end;
  // A backslash before a quote escapes the quote of a string around the command (JSON's `\"`).
  while (e < limit && !isIn(WORD_ENDS, text.charCodeAt(e)) && !(text.charCodeAt(e) === 0x5c && isIn(QUOTES, text.charCodeAt(e + 1)))) e++;
  return e;
}

/**
 * Where a query string's or form body's value ends ({@link isQueryValue}) when the core stopped
 * inside it: encodeURIComponent leaves `(`, `)`, `!`, `*` and `'` as they are, and the core's value
 * class stops at brackets. The value runs to its `&` or `#`, a blank, a double quote, backtick or
 * `<` (the string or element around the URL), less a closer of what opened before it (a Markdown
 * link's `)`); `'` ends it too, as it may close the string around the URL.
 */
export function queryValueExtent(text: string, start: number, end: number): number {
  const limit = Math.min(text.length, start + VALUE_LOOK);
  let e = end;
  while (e < limit && !isIn(QUERY_VALUE_ENDS, text.charCodeAt(e))) e++;
  return e === end ? end : withoutEnclosingClosers(text, start, end, e);
}

/**
 * The end of a connection string's password that stands alone (not {@link amongConnectionPairs}):
 * the core read it with the pair's value class, which takes in a `)` or `]` that closes a call or
 * list opened before it (`connect(user=u, password=…)`), and a `,` or `;` ending a statement.
 */
export function lonePairEnd(text: string, start: number, end: number): number {
  end = withoutEnclosingClosers(text, start, start + 1, end);
  // A name then `(` or `[` (`password=make_password(raw)`) ends at the bracket, as the generic
  // rule's value does, so the judgement sees a call or an index.
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if ((c === 0x28 || c === 0x5b) && k > start) return k;
    if (!isIn(IDENTIFIER, c)) break;
  }
  return end;
}

/**
 * Whether a connection string's password (`Password=…`, `Pwd=…`) found at `start`..`end` stands
 * among the string's `;`-separated pairs: a `;` before it on its line (within 256 characters) or
 * right after the value. Alone (`export PASSWORD=…`, a text's first line) the same span is a plain
 * assignment, which the generic rule names when it found it too.
 */
export function amongConnectionPairs(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(end) === 0x3b) return true;
  for (let k = start - 1, from = Math.max(0, start - 256); k >= from; k--) {
    const c = text.charCodeAt(k);
    if (c === 0x0a) return false;
    if (c === 0x3b) return true;
  }
  return false;
}

/** How far before a value {@link withoutEnclosingClosers} looks for what a closer closes (it runs per candidate). */
const ENCLOSING_LOOK = 256;
/** How many closers {@link withoutEnclosingClosers} leaves out at most. */
const ENCLOSING_CLOSERS = 4;

/**
 * The end `e` of an unquoted value's token, less what ends the statement or the string around the
 * assignment: a `;` or `,`, and a quote or bracket that closes one opened earlier on the line
 * (Compose's `- "POSTGRES_PASSWORD=…"`, a JSON array's `["--password=…"]`). Redacted with the
 * value, such a closer left the text behind it unterminated. A password may end in a quote or a
 * bracket of its own: then nothing on the line before it is left open. Never less than `end`, the
 * core's value.
 */
function withoutEnclosingClosers(text: string, start: number, end: number, e: number): number {
  const from = Math.max(0, start - ENCLOSING_LOOK);
  // At most ENCLOSING_CLOSERS of them (`"]`, `"})`): each costs a look back along the line, and a
  // line of nothing but brackets must not make that a look per character.
  for (let closers = 0; ; closers++) {
    while (e > end && (text.charCodeAt(e - 1) === 0x3b || text.charCodeAt(e - 1) === 0x2c)) e--;
    if (e === end || closers === ENCLOSING_CLOSERS) return e;
    const close = text.charCodeAt(e - 1);
    const quote = isIn(QUOTES, close);
    const open = close === 0x29 ? 0x28 : close === 0x5d ? 0x5b : close === 0x7d ? 0x7b : quote ? close : -1;
    if (open < 0) return e;
    // It closes one opened before the value: the bracket it matches, or for a quote, one of an odd
    // number on the line, with none inside the value (a pair there is the value's own).
    let level = 1;
    let k = e - 2;
    for (; k >= from; k--) {
      const c = text.charCodeAt(k);
      if (c === 0x0a || (quote && c === close && k >= start)) return e;
      if (quote ? c === close : c === open && --level === 0) break;
      if (!quote && c === close) level++;
    }
    if (k < from || k >= start) return e;
    if (quote) {
      let odd = 1;
      while (--k >= from && text.charCodeAt(k) !== 0x0a) if (text.charCodeAt(k) === close) odd ^= 1;
      if (odd === 0) return e;
    }
    e--;
  }
}

/** Whether shell's default operator `:-` ends right before `start` (`${DB_PASSWORD:-…}`). */
function followsShellDefault(text: string, start: number): boolean {
  return text.charCodeAt(start - 1) === 0x2d && text.charCodeAt(start - 2) === 0x3a;
}

/**
 * Where a quoted assignment value ends when the core stopped inside its quotes: the core's value
 * classes stop at blanks (a quoted UI string is not a password) and are ASCII, so
 * `"Xk9vQ2mL7pR4 9z"` was found as its first word and `"Xk9vQ2mL§7pR4"` up to the `§`, the rest
 * left in the text. The value has been judged a secret on what the core read; it runs on to its
 * closing quote on the same line, within 256 characters of its start, past a backslash-escaped
 * quote and a doubled one (YAML's and SQL's `'…''…'`, C#'s `@"…""…"`); when the opening quote was
 * escaped (`\"…\"`, JSON inside a string), to the escaped closing one. With no closing quote
 * there, the end is the core's.
 */
export function quotedValueEnd(text: string, start: number, end: number): number {
  const quote = text.charCodeAt(start - 1);
  if (!isIn(QUOTES, quote) || end >= text.length) return end;
  const escaped = text.charCodeAt(start - 2) === 0x5c;
  const limit = Math.min(text.length, start + VALUE_LOOK);
  for (let i = end; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      if (escaped) return end;
      // A doubled quote is one inside the value; a run of three is a closing triple quote.
      if (text.charCodeAt(i + 1) !== quote || text.charCodeAt(i + 2) === quote) return i;
      i++;
    } else if (c === 0x0a || c === 0x0d) return end;
    else if (c === 0x5c) {
      if (escaped && text.charCodeAt(i + 1) === quote) return i;
      i++;
    }
  }
  return end;
}

/**
 * Whether `default=` stands at `at`, after a blank, a line break or the comma between arguments:
 * the keyword argument naming an environment read's default (python-decouple's and
 * django-environ's `config('SECRET_KEY', default='…')`, `os.getenv("DB_PASSWORD", default="…")`).
 */
function isDefaultKeyword(text: string, at: number): boolean {
  return at > 0 && text.startsWith(DEFAULT_KEYWORD, at) && isIn(ARGUMENT_GAP, text.charCodeAt(at - 1));
}
const DEFAULT_KEYWORD = 'default=';

/** The most keyword arguments read before `default=` (`cast=str, `): a call's few options. */
const KEYWORD_ARGUMENTS_MAX = 4;

/**
 * Back from `at` (where `default=` starts) over the keyword arguments given before it, each a
 * name, `=` and a name or a dotted name as its value (`cast=str, `, `cast=bool,\n    `), up to
 * KEYWORD_ARGUMENTS_MAX of them, each with a comma after it: where the first starts, or `at` when
 * there are none, or -1 when something else stands there (a call, a string: another argument's
 * value, which may be anything).
 */
function keywordArgumentsStart(text: string, at: number, floor: number): number {
  let i = at;
  for (let k = 0; k <= KEYWORD_ARGUMENTS_MAX; k++) {
    const gap = backOver(ARGUMENT_GAP, text, i, floor);
    if (gap <= floor || isIn(QUOTES, text.charCodeAt(gap - 1))) return i;
    if (k === KEYWORD_ARGUMENTS_MAX || !holdsComma(text, gap, i)) return -1;
    const value = backOver(NAME, text, gap, floor);
    if (value === gap || text.charCodeAt(value - 1) !== 0x3d) return -1;
    const name = backOver(NAME, text, value - 1, floor);
    if (name === value - 1) return -1;
    i = name;
  }
  return -1;
}

/** Whether `text` holds a comma from `from` up to `to` (a gap between arguments). */
function holdsComma(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === 0x2c) return true;
  return false;
}

/**
 * For a value after a quoted name (`define('DB_PASSWORD', '…')`, `env("API_KEY", "…")`, also
 * given as `default='…'`): true when the name is the first argument of a call, an opening
 * parenthesis before its quote. A list
 * of strings (`["username", "password", "hostname"]`, a source map's names) has the same shape
 * and no call: its next item is not the name's value.
 */
function isCallArgument(text: string, start: number): boolean {
  const floor = Math.max(0, start - 160);
  // Back over the value's quote, the blanks and the comma to the name's closing quote. The value
  // may open with an escaped quote inside its own (`"\"…\""`, Gradle's string fields).
  let i = start - 1;
  if (text.charCodeAt(i - 1) === 0x5c && isIn(QUOTES, text.charCodeAt(i - 2))) i -= 2;
  // A string literal's prefix (`default=r'…'`).
  else i = stringPrefixStart(text, i, floor);
  // Given by keyword: `default=` right before the value, perhaps after other keyword arguments
  // (the core's run of keyword-argument bytes reads anything of them).
  if (text.charCodeAt(i - 1) === 0x3d) {
    i -= DEFAULT_KEYWORD.length;
    if (!isDefaultKeyword(text, i)) return false;
    i = keywordArgumentsStart(text, i, floor);
    if (i < 0) return false;
  }
  i = backOver(ARGUMENT_GAP, text, i, floor);
  const open = quoteOpening(text, i - 1, floor);
  if (open < 0) return false;
  const j = backOver(BLANKS, text, open, floor);
  if (text.charCodeAt(j - 1) === 0x2c) return isGradleField(text, j - 1, floor);
  if (text.charCodeAt(j - 1) !== 0x28) return false;
  // The function called: a translation function's second argument is a text domain or a
  // context (`esc_html__( 'Password', 'my-plugin' )`), not the first's value.
  return !TRANSLATION_CALL.test(text.slice(backOver(NAME, text, j - 1, floor), j - 1));
}

/**
 * Gradle's calls that take a type, then a name, then its value, in parentheses (Kotlin DSL) or
 * with none (Groovy): `buildConfigField "String", "API_KEY", "\"…\""` puts the value in an Android
 * app's BuildConfig, `resValue "string", "api_key", "…"` in its resources.
 */
const GRADLE_FIELD_CALLS = new Set(['buildConfigField', 'resValue']);

/**
 * For a name whose quote has a comma before it (at `comma`): true when the argument before the
 * comma is a quoted type, itself the first argument of one of Gradle's GRADLE_FIELD_CALLS.
 */
function isGradleField(text: string, comma: number, floor: number): boolean {
  const open = quoteOpening(text, backOver(BLANKS, text, comma, floor) - 1, floor);
  if (open < 0) return false;
  let j = backOver(BLANKS, text, open, floor);
  if (text.charCodeAt(j - 1) === 0x28) j--;
  else if (j === open) return false;
  j = backOver(BLANKS, text, j, floor);
  const callee = text.slice(backOver(NAME, text, j, floor), j);
  return GRADLE_FIELD_CALLS.has(callee.slice(callee.lastIndexOf('.') + 1));
}

/**
 * Translation functions whose arguments are a UI string and a text domain or context: WordPress's
 * `__`, `_e`, `_x`, `_n`, `esc_html__`, `esc_attr_e` …, gettext's `_`, `gettext`, `dgettext`.
 */
const TRANSLATION_CALL = /^(?:[\w.]*\.)?(?:_{1,2}|_[exn]|_ex|_nx|esc_(?:html|attr)_(?:_|e|x)|d?gettext|translate)$/;

/**
 * A slug or identifier of lowercase words (`my-plugin-textdomain`, `sanitize_text_field`): what
 * calls take after a quoted name (a hook, a callback, a default), not a credential.
 */
const SLUG = /^[a-z]+(?:[-_][a-z]+)+$/;

/** The position before `i` past bytes of `set`, going back no further than `floor`. */
function backOver(set: Uint8Array, text: string, i: number, floor: number): number {
  while (i > floor && isIn(set, text.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * For a quote at `close` that ends a string: where the string opens, looked for within the window
 * only (lastIndexOf would walk back over the whole text, for every candidate); -1 when `close` is
 * no quote or its string opens before `floor`.
 */
function quoteOpening(text: string, close: number, floor: number): number {
  const quote = text.charCodeAt(close);
  if (!isIn(QUOTES, quote)) return -1;
  let open = close - 1;
  while (open > floor && text.charCodeAt(open) !== quote) open--;
  return open > floor ? open : -1;
}

/** For an argument rule's value: a credential unless it is not a call's (see isCallArgument) or a slug. */
export function isCredentialArgument(text: string, start: number, value: string): boolean {
  return isCallArgument(text, start) && !SLUG.test(value);
}

/** True when a URL or connection-string password is a default or a reference. */
export function isNonSecretPassword(value: string): boolean {
  return isStopValue(value) || DOLLAR_REFERENCE.test(value) || value.startsWith('%') || ENV_PREFIX.test(value);
}
/** A value that names an environment variable by an `env:` prefix, in any case. */
const ENV_PREFIX = /^env:/i;

/**
 * The password before a Go DSN's protocol, whose match starts at the protocol's `@`
 * (`app:…@tcp(db:3306)`, rule `go-dsn-password`): what follows the user's first `:`, up to that
 * `@`. Go's MySQL driver splits the user there and the DSN at its last `@`, so a password may
 * hold a `:`, an `@`, a `/` and anything else but a blank or a quote, and a user no `:`. Read
 * back over those, up to 256 characters before the `@`, and from after an earlier DSN's address
 * (`reader@tcp(r:3306),writer@tcp(…)`). Undefined when there is no password or an
 * empty one (`root@tcp(…)`, `root:@tcp(…)`). Where the DSN starts cannot always be told: in
 * `time=10:00:01Z,dsn=root@tcp(…)` the `:` of a time reads as the user's, and what follows is
 * redacted. A password that holds `,name=` is more likely than such a line, so it stays so.
 */
export function userinfoPassword(text: string, start: number, end: number): { start: number; end: number } | undefined {
  // The match is the protocol and the address after the `@`, a name's characters with no `@`.
  const at = text.lastIndexOf('@', end - 1);
  const floor = Math.max(0, at - 256);
  let from = backOver(DSN_BYTES, text, Math.min(start, at), floor);
  // Searched within the reach only (at most 256 characters), so a match costs no more than that.
  const reach = text.slice(from, at);
  let cut = 0;
  // Another DSN before this one on the line: this one starts after that one's address.
  const other = Math.max(reach.lastIndexOf('@tcp'), reach.lastIndexOf('@unix('));
  if (other >= 0) {
    const close = reach.indexOf(')', other);
    if (close >= 0) cut = close + 1;
  }
  from += cut;
  let colon = from;
  while (colon < at && text.charCodeAt(colon) !== 0x3a) colon++;
  // A URL's scheme before the DSN (`mysql://app:…@tcp(…)`, `dsn=mysql://…`): the user starts after
  // it. Only the first `:` can be a scheme's: a user holds none, so a `://` after it is the
  // password's own (`app:a://b@tcp(…)`). A line such as `x:y;mysql://app:…` then reads `y;mysql://app:…`
  // as the password: more is redacted, nothing is left. And only a driver's scheme (DSN_SCHEME):
  // `app://…@tcp(` is the user `app` and a password that begins with `//`.
  if (text.startsWith('://', colon) && DSN_SCHEME.test(text.slice(Math.max(from, colon - 10), colon))) {
    colon += 3;
    while (colon < at && text.charCodeAt(colon) !== 0x3a) colon++;
  }
  if (colon + 1 >= at) return undefined;
  return { start: colon + 1, end: at };
}

/**
 * The name of the Terraform variable whose default is the value at `start` (rule
 * `generic-secret-terraform-default`): the label of the nearest block header `variable "…" {`
 * before it, within 2,048 characters (the core's search reaches 1,024 past the header). A
 * `variable "` that does not open its line, or that no `{` follows, is passed over (`# same as
 * variable "region"` in a comment).
 * Undefined when there is none, or when the block closes before the value: a `}` on the header's
 * own line (`variable "x" { type = string }`), or one opening a line, as `terraform fmt` closes
 * a top-level block (`locals { default = … }` after it is another block's). Bounded: every search
 * stays within the 2,048 characters before the value.
 */
export function variableLabel(text: string, start: number): string | undefined {
  const floor = Math.max(0, start - 2048);
  const window = text.slice(floor, start);
  for (let at = window.lastIndexOf('variable "'); at >= 0; at = at > 0 ? window.lastIndexOf('variable "', at - 1) : -1) {
    // A header opens its line (a top-level block): not one quoted in a comment or a string.
    const lineHead = backOver(SPACE_TAB, window, at, 0);
    if (lineHead > 0 && window.charCodeAt(lineHead - 1) !== 0x0a) continue;
    const open = at + 10;
    const close = window.indexOf('"', open);
    if (close < 0) continue;
    let brace = close + 1;
    while (brace < window.length && isIn(SPACE_TAB, window.charCodeAt(brace))) brace++;
    if (window.charCodeAt(brace) !== 0x7b) continue;
    const lineEnd = window.indexOf('\n', brace);
    if (lineEnd < 0 || window.slice(brace, lineEnd).includes('}') || window.includes('\n}', lineEnd)) return undefined;
    return window.slice(open, close);
  }
  return undefined;
}

/** {@link variableLabel} as a name read: at the value (nothing before it is URL userinfo). */
function labelName(text: string, start: number): { name: string; at: number } | undefined {
  const name = variableLabel(text, start);
  return name === undefined ? undefined : { name, at: start };
}

/**
 * Whether the command line of the value at `start` names one of `commands` (lowercase) before it:
 * the value's line, and the lines before it that it continues (ending in `\`, `^` or a backtick,
 * as shells, cmd and PowerShell continue a command), up to 1,024 characters back. The rules that
 * search on from a command for its flag (`az login … -p`) would otherwise read `az login` on one
 * line and `mkdir -p build` on the next as one command.
 */
export function onCommandLine(text: string, start: number, commands: readonly string[]): boolean {
  const floor = Math.max(0, start - 1024);
  let to = start;
  for (let first = true; ; first = false) {
    const from = lineStart(text, to, floor);
    const line = text.slice(from, to).toLowerCase();
    if (commands.some((command) => line.includes(command))) return true;
    // The value's line holds only flags (`    -pS3cret …` in a folded YAML block, a string joined
    // to the one before), or runs a command held in a variable (`$DB_CLIENT -h db -p…`): it goes
    // on from a command, not a new one. (A YAML list item, `- mkdir -p x`, is a new one.)
    if (first && FLAGS_ONLY.test(line)) return true;
    // The line before ends in a continuation (perhaps before blanks or a CR): it is this command's too.
    const k = backOver(SPACE_TAB_CR, text, from - 1, floor);
    const c = k > floor ? text.charCodeAt(k - 1) : 0;
    if (from > floor && (c === 0x5c || c === 0x5e || c === 0x60)) to = k - 1;
    else return false;
  }
}

/** A line of flags, or one that runs a command held in a variable: after blanks and quotes, `-x` or `$`. */
const FLAGS_ONLY = /^[\s"'(]*(?:-[^\s-]|--[^\s]|\$)/;

/**
 * The user before a URL password that is GitHub's constant `x-oauth-basic` (at `start`): in
 * `https://TOKEN:x-oauth-basic@github.com` the user is the token. Its span when it is one (20 to
 * 256 base64url characters right after `//`), else undefined.
 */
export function oauthBasicUser(text: string, start: number): { start: number; end: number } | undefined {
  const end = start - 1;
  if (text.charCodeAt(end) !== 0x3a) return undefined;
  const from = backOver(BASE64URL, text, end, Math.max(0, end - 256));
  if (end - from < 20 || !text.startsWith('//', from - 2)) return undefined;
  return { start: from, end };
}

/**
 * Whether a value's name holds one of `words` (lowercase; a word ending in `$` must end the name,
 * and one written `^word$` must be the whole name).
 * The check of the rules keyed on a statement (`ENV `, `#define `, `; } = `): the core matched the
 * statement, not a keyword in the name, so `ENV NODE_ENV production` is no password and `#define
 * API_KEY "…"` is an API key, not a token.
 */
export function nameHolds(name: string, words: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return words.some((w) => (w.startsWith('^') ? lower === w.slice(1, -1) : w.endsWith('$') ? lower.endsWith(w.slice(0, -1)) : lower.includes(w)));
}

/**
 * The identifier a value is assigned to: skip back over quotes, blanks and `:`/`=`/`>`, then take
 * the name characters before them (bounded, so a long line costs nothing extra).
 */
function assignedName(text: string, start: number): { name: string; at: number } {
  const floor = Math.max(0, start - 160);
  const found = nameBefore(text, start, floor);
  // An environment read's default given by keyword (`config('SECRET_KEY', default='…')`): the
  // variable's quoted name before it is the value's, perhaps on the line before (one argument a line).
  if (found.name === 'default' && isDefaultKeyword(text, found.at)) {
    // Past other keyword arguments before it (`cast=str, `) when they are that.
    const from = keywordArgumentsStart(text, found.at, floor);
    return argumentNameBefore(text, from >= 0 ? from : found.at, floor);
  }
  // An argument on the line after its quoted name's (`config(\n    'SECRET_KEY',\n    '…')`).
  if (found.name === '' && (text.charCodeAt(found.at - 1) === 0x0a || text.charCodeAt(found.at - 1) === 0x0d)) {
    const above = argumentNameBefore(text, found.at, floor);
    if (above.name !== '') return above;
  }
  // A property list's `<string>` names nothing: the `<key>` before it does.
  if (found.name === 'string' && text.charCodeAt(found.at - 1) === 0x3c) return plistKeyName(text, found.at - 1, floor) ?? found;
  if (found.name.length === 5 && found.name.toLowerCase() === 'value') {
    let i = found.at;
    // An attribute's namespace prefix (Android's `android:value`) is no part of the entry's layout.
    if (text.charCodeAt(i - 1) === 0x3a) i = backOver(NAME, text, i - 1, floor);
    i = backOver(SPACE_TAB, text, i, floor);
    // A name/value entry (`- name: API_KEY` / `value: …` on the next line): the entry's name counts.
    if (i > floor && text.charCodeAt(i - 1) === 0x0a) {
      i--;
      if (i > floor && text.charCodeAt(i - 1) === 0x0d) i--;
      const entry = nameBefore(text, i, floor);
      if (entry.name !== '') return entry;
      return found;
    }
    // A pair (`key="ClientSecret" value="…"`, `"name": "API_KEY", "value": "…"`, also
    // pretty-printed): the name is the field before `value`, past quotes, blanks, commas and line
    // breaks.
    i = backOver(PAIR_GAP, text, i, floor);
    if (i < found.at) {
      const pair = nameBefore(text, i, floor);
      if (pair.name !== '') return pair;
    }
  }
  return found;
}

/** The quoted name before an argument at `at`: past blanks, line breaks and the comma between them. */
function argumentNameBefore(text: string, at: number, floor: number): { name: string; at: number } {
  return nameBefore(text, backOver(ARGUMENT_GAP, text, at, floor), floor);
}

/**
 * The text of a property list's `<key>` element before the `<string>` opening at `open` (its
 * `<`), past blanks and line breaks: `<key>API_SECRET</key>` names `API_SECRET`. Undefined when no
 * `</key>` ends right there.
 */
function plistKeyName(text: string, open: number, floor: number): { name: string; at: number } | undefined {
  const close = backOver(BLANKS, text, open, floor) - 6;
  if (close <= floor || !text.startsWith('</key>', close)) return undefined;
  const at = backOver(NAME, text, close, floor);
  return at >= 5 && text.startsWith('<key>', at - 5) ? { name: text.slice(at, close), at } : undefined;
}

/**
 * The declared name before a typed declaration's value (`const apiKey: string = "…"`, `var dbPassword
 * string = "…"`, `static DB_PASSWORD: &'static str = "…"`): the nearest name before the value, on
 * its line and within 96 characters, that holds one of the keywords the rules matched. A type
 * holds none (`string`, `str`, `Final`) unless it is named after one, and then it is judged as the
 * name (`token: TokenType = …` says the value is a type of token).
 */
export function declaredName(text: string, start: number): { name: string; at: number } {
  const floor = Math.max(0, start - 96);
  let i = start;
  while (i > floor) {
    while (i > floor && !isIn(NAME, text.charCodeAt(i - 1))) {
      const c = text.charCodeAt(i - 1);
      if (c === 0x0a || c === 0x0d) return { name: '', at: start };
      i--;
    }
    const e = i;
    i = backOver(NAME, text, i, floor);
    const name = text.slice(i, e);
    const lower = name.toLowerCase();
    if (NAME_KEYWORDS.some((k) => lower.includes(k))) return { name, at: i };
  }
  return { name: '', at: start };
}

/**
 * True when a base64 credential (Docker's `auth`, npm's `_auth`) decodes to `user:password` with
 * printable text on both sides and a password that is not a default or a reference. Anything else
 * that happens to sit in such a field is not reported.
 */
export function isBasicCredential(value: string): boolean {
  const pair = basicPair(value);
  return pair !== undefined && !isNonSecretPassword(pair.password);
}

/**
 * The user and password of base64 `user:password` (printable, a user and a password of one
 * character or more), or undefined when the value does not decode to such a pair.
 */
function basicPair(value: string): { user: string; password: string } | undefined {
  // Checked before decoding, so that atob does not throw: the header rules take values of other
  // alphabets too (`Bot ….….…`), and a throw per candidate deoptimises the scan's loop (measured:
  // 7% of a scan of the labelled corpus's small files).
  if (!decodes(value)) return undefined;
  const decoded = atob(value);
  const colon = decoded.indexOf(':');
  if (colon < 1 || colon === decoded.length - 1) return undefined;
  for (let k = 0; k < decoded.length; k++) {
    const c = decoded.charCodeAt(k);
    if (c < 0x20 || c === 0x7f) return undefined;
  }
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Whether atob decodes `value` rather than throwing (blanks, which it skips, aside): base64's
 * alphabet, then at most two `=` of padding, which needs a length in fours; unpadded, any length
 * but one more than a multiple of four.
 */
export function decodes(value: string): boolean {
  if (!BASE64_TEXT.test(value)) return false;
  return value.endsWith('=') ? value.length % 4 === 0 : value.length % 4 !== 1;
}
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * For an Authorization header's value: true when it is documentation about the header. Either it
 * decodes to `user:password` whose password is a default word or a stand-in (`user:password`,
 * `admin:changeme`, `me:your_password`) and whose user has no digit (a key sent as the user,
 * `sk_live_…:x`, has: it is reported), or it does not decode to a pair and is words
 * ({@link WORDS_ONLY}: `authentication`, `Credentials`, `Base64EncodedCredentials`,
 * `YourApiKeyGoesHere`). A generated token or the base64 of a real pair has capitals side by
 * side, a capital before a digit or a long lowercase run far more often than not.
 */
export function isHeaderProse(value: string): boolean {
  const pair = basicPair(value);
  if (pair === undefined) return WORDS_ONLY.test(value);
  const { user, password } = pair;
  const standIn = isStopValue(password) || hasPlaceholderFragment(password);
  return standIn && !/\d/.test(user);
}

/**
 * Words only: perhaps a lowercase word first, then capitalised words, each of 3 to 16 letters (a
 * lowercase run of 2 to 15 after its capital) and perhaps up to four digits after it (`Base64`).
 * A string splits into such words one way only (a lowercase run ends at a capital or a digit, a
 * digit run at a capital), which keeps the match linear on the core's values of up to 1,024
 * characters; a lowercase token (`kqzpmvtrwnbhgfdslkjq`) is one run too long, a key of letters
 * then digits (`ab83749201847362`) has too many digits.
 */
const WORDS_ONLY = /^(?:[a-z]{2,15}\d{0,4})?(?:[A-Z][a-z]{2,15}\d{0,4})*$/;

/** The name characters right before `end`, past any separators (see {@link assignedName}). */
function nameBefore(text: string, end: number, floor: number): { name: string; at: number } {
  let i = backOver(SEPARATOR, text, end, floor);
  // A string literal's prefix (Python's `SECRET_KEY = b'…'`, `r"…"`) names nothing: the name is
  // before it. One or two of its letters right before the value's own opening quote, after a
  // separator (a JSON name such as `"rb": "…"` ends before a quote, a colon and another quote).
  if (i === end - 1 && isIn(QUOTES, text.charCodeAt(i))) {
    const p = stringPrefixStart(text, i, floor);
    if (p < i) {
      i = backOver(SEPARATOR, text, p, floor);
    }
  }
  // An operator that assigns a default or appends (Makefile's `?=`, `+=`, `|=`, Ruby's `||=`, C#'s
  // `??=`), which may come before such a prefix (`x ||= b'…'`): the name is before it.
  if (text.charCodeAt(i) === 0x3d && i > floor && isIn(ASSIGN_OP, text.charCodeAt(i - 1))) {
    let p = i - 1;
    // `??=` and `||=` (`++` is no assignment's).
    if (p > floor && text.charCodeAt(p) !== 0x2b && text.charCodeAt(p - 1) === text.charCodeAt(p)) p--;
    i = backOver(SEPARATOR, text, p, floor);
  }
  const at = backOver(NAME, text, i, floor);
  return { name: text.slice(at, i), at };
}

/**
 * The words before `KEY` that name a key no one keeps secret, or one that only finds a record:
 * published client keys (`STRIPE_PUBLISHABLE_KEY`, `RECAPTCHA_SITE_KEY`, `VAPID_PUBLIC_KEY`) and
 * lookup keys of data and caches (`PRIMARY_KEY`, `PARTITION_KEY`, `CACHE_KEY`, `IDEMPOTENCY_KEY`).
 */
const LOOKUP_KEY_WORDS = new Set([
  'public', 'publishable', 'pub', 'site', 'primary', 'foreign', 'partition', 'sort', 'range', 'row', 'cache', 'idempotency', 'dedupe',
  'dedup', 'routing', 'lookup', 'cursor', 'shard', 'unique', 'composite', 'i18n', 'translation', 'sequence', 'gpg', 'pgp', 'fingerprint',
]);

/**
 * The judgement of a value whose name holds no kind word, only `_KEY` or `_PAT` at its end
 * (`STRIPE_KEY`, `JWT_KEY`, `SESSION_KEY`, `GITHUB_PAT`), or that has no name (a URL's only user
 * information, url-token): a secret only when it looks generated: base64 or base64url characters
 * with letters and digits, cut into the short pieces of a random string ({@link hasGeneratedShape};
 * `userProfileQuery2`, `persist:root:v1` and `myapp-state-v3` are names of things, not keys), and
 * when no word of its name makes it a public or lookup key ({@link LOOKUP_KEY_WORDS}).
 */
export function isGeneratedKey(text: string, start: number, value: string): boolean {
  // A Sentry DSN's key (`https://<32 hex>@o1.ingest.sentry.io/2`) ships in client code by design.
  const end = start + value.length;
  if (text.charCodeAt(end) === 0x40 && SENTRY_DSN_KEY.test(value) && SENTRY_DSN_REST.test(text.slice(end, end + 128))) return false;
  // A name with a kind word (`STRIPE_SECRET_KEY`), or whose `KEY` another rule's `*_key` keyword
  // ends (`SENDGRID_API_KEY`), is that kind's rule's, which finds the same value under laxer
  // bounds: this one leaves it, and the host does the work once. Whole words only: `PASSPORT_KEY`
  // and `BYPASS_KEY` are no passwords' names. The name first: it turns most candidates away, and
  // costs less than the value's shape.
  const nameWords = words(assignedName(text, start).name);
  if (KEY_KINDS.has(nameWords[nameWords.length - 2]!)) return false;
  if (nameWords.some((word) => KIND_WORDS.has(word) || LOOKUP_KEY_WORDS.has(word))) return false;
  if (!GENERATED_KEY_CHARS.test(value) || !/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
  // Azure DevOps's classic PATs are 52 characters of lowercase base32, whose digits are 6 of 32
  // characters: their letter runs are too long for the shape test about three times in five. 32
  // or more lowercase hex characters are a key under a `_KEY` name (Datadog's, Algolia's) and, as
  // a URL's only user information, a token (GitHub's older ones are 40), not a user's name: the
  // shape test turns one in twenty-five of those away.
  return hasGeneratedShape(value) || CLASSIC_AZURE_PAT.test(value) || LONG_HEX.test(value);
}

/** A Sentry DSN's public key, before the DSN's `@`. */
const SENTRY_DSN_KEY = /^[0-9a-f]{32}$/;
/** The rest of a Sentry DSN after its key: `@host/<project number>`, and the URL ends. */
const SENTRY_DSN_REST = /^@[\w.:-]+(?:\\?\/[\w.-]+)*?\\?\/\d+(?![\w/.-])/;
/** 32 or more lowercase hex characters. */
const LONG_HEX = /^[0-9a-f]{32,}$/;
/** Azure DevOps's classic personal access token: 52 characters of lowercase base32. */
const CLASSIC_AZURE_PAT = /^[a-z2-7]{52}$/;

/** A generated key's characters: base64's and base64url's, with its padding. */
const GENERATED_KEY_CHARS = /^[A-Za-z0-9+/=_-]+$/;

/**
 * The words secrets are named with, as whole words, and their plurals: the other generic rules'
 * keywords (build/rules/generic.mjs) that are words of their own: the password words, `secret`,
 * `credential`, `creds`, `token`.
 */
const KIND_WORDS = new Set(['password', 'passwords', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'secrets', 'credential', 'credentials', 'cred', 'creds', 'token', 'tokens']);
/** The words secrets are named with, `key` among them: {@link KIND_WORDS} and `key`. */
const SECRET_WORDS = new Set([...KIND_WORDS, 'key']);
/** The word before `key` in the secret and API-key rules' `*_key` keywords (`api_key`, `signing_key`). */
const KEY_KINDS = new Set(['api', 'access', 'auth', 'app', 'client', 'license', 'subscription', 'private', 'signing', 'encryption', 'master', 'hmac']);

/**
 * Whether the value at `start` is a query string's or form body's: a name right after `?` or `&`
 * given its value with `=` (`?api_key=…&page=2`, `-d "user=a&password=…&grant_type=password"`, a
 * JDBC URL's `&password=…&useSSL=false`). Such a value ends at the next `&` or `#`
 * ({@link queryValueEnd}), which the core's value class takes in; its own are percent-encoded.
 */
export function isQueryValue(text: string, start: number): boolean {
  // One `=` right before the value: `a==b` and `&&` are code's operators, not a query's.
  if (text.charCodeAt(start - 1) !== 0x3d || text.charCodeAt(start - 2) === 0x3d || text.charCodeAt(start) === 0x3d) return false;
  const { name, at } = nameBefore(text, start, Math.max(0, start - 160));
  const before = text.charCodeAt(at - 1);
  return name !== '' && (before === 0x3f || (before === 0x26 && text.charCodeAt(at - 2) !== 0x26));
}

/** The end of a query value ({@link isQueryValue}) found at `start`..`end`: its first `&` or `#`. */
export function queryValueEnd(text: string, start: number, end: number): number {
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x26 || c === 0x23) return k;
  }
  return end;
}

/** True when a match sits inside a `data:…;base64,` payload. */
export function insideDataUrl(text: string, start: number): boolean {
  const i = backOver(BASE64, text, start, Math.max(0, start - 65_536));
  return i >= 7 && text.slice(i - 7, i) === 'base64,';
}

/** An ASCII character class as a 128-entry table, for scanning a string code unit by code unit. */
function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let k = 0; k < chars.length; k++) set[chars.charCodeAt(k)] = 1;
  return set;
}
const DIGITS_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = asciiSet(DIGITS_LETTERS.slice(0, 26));
const LETTERS = asciiSet(DIGITS_LETTERS.slice(0, 52));
const LOWER = asciiSet(DIGITS_LETTERS.slice(26, 52));
const DIGITS = asciiSet(DIGITS_LETTERS.slice(52));
/** Blanks within a line. */
const SPACE_TAB = asciiSet(' \t');
/** Blanks and a CR: what may stand between a line's last byte and its `\n`. */
const SPACE_TAB_CR = asciiSet(' \t\r');
/**
 * What separates a name from its value: blanks, quotes, `]`, `:`, `=`, `>`, `,` between a quoted
 * name and its argument, and the backslash of an escaped quote (`{\"password\": \"…\"}`).
 */
const SEPARATOR = asciiSet(' \t"\'`]:=>,\\');
/** An assignment's own bytes (the core's `assign` class). */
const ASSIGN_CHARS = asciiSet(':=>');
/** The first bytes of an operator that assigns a default or appends: `?=`, `+=`, `||=`, `??=`. */
const ASSIGN_OP = asciiSet('?+|');
/** The letters of a string literal's prefix: Python's `b'…'`, `r"…"`, `rb'…'`, `f"…"`, `u"…"`. */
const STRING_PREFIX = asciiSet('rRbBuUfF');
/** Between the name and `value` of a pair: blanks, quotes, `]`, commas and line breaks. */
const PAIR_GAP = asciiSet(' \t\r\n"\'`],');
/** A dotted identifier's characters: `[\w$.]`. */
const IDENTIFIER = asciiSet(DIGITS_LETTERS + '_$.');
/** Name characters: `[\w.-]`. */
const NAME = asciiSet(DIGITS_LETTERS + '_.-');
/** The quotes a value or name may stand in: `"`, `'` and the backtick. */
const QUOTES = asciiSet('"\'`');
/** Blanks and line breaks. */
const BLANKS = asciiSet(' \t\r\n');
/** A YAML flow mapping's or list's closer (configLineEnd). */
const FLOW_CLOSERS = asciiSet('}]');
/** What ends one `name=value` pair before another in a word (configLineEnd, quotedPairEnd). */
const PAIR_SEPARATORS = asciiSet(' \t&;');
/** What ends a connection string's value besides its `;` (pairValueEnd): a quote, a tag, the line's end. */
const PAIR_VALUE_ENDS = asciiSet('"\'`<\r\n');
/** What ends a URL's authority (userinfoEnd), besides blanks and controls. */
const AUTHORITY_ENDS = asciiSet('/?#\\"\'`<>[](){}');
/** What stands before a shell word (shellWordEnd): a blank, a quote, a line break, `=` of a flag (`--password=`). */
const WORD_BREAKS = asciiSet(' \t\r\n"\'`=');
/** What ends an unquoted shell word (shellWordEnd): blanks, quotes, the shell's operators. */
const WORD_ENDS = asciiSet(' \t\r\n"\'`;|&<>()');
/** What ends a query value past the core's end (queryValueExtent). */
const QUERY_VALUE_ENDS = asciiSet('&# \t\r\n"\'`<>');
/** Between a quoted name and the quoted argument after it: blanks, line breaks and the comma. */
const ARGUMENT_GAP = asciiSet(' \t\r\n,');
/** Base64 characters: `[A-Za-z0-9+/=]`. */
const BASE64 = asciiSet(DIGITS_LETTERS + '+/=');
/**
 * The schemes before a DSN of Go's MySQL driver in a URL (golang-migrate's `mysql://…@tcp(…)`, and
 * the drivers that speak MySQL's protocol), ending where the `:` is.
 */
const DSN_SCHEME = /(?:^|[^A-Za-z0-9+.-])(?:mysql|mariadb|tidb|singlestore|vitess)$/i;
/** What a DSN's user and password may hold: printable ASCII but blanks and quotes. */
const DSN_BYTES = asciiSet(DIGITS_LETTERS + '!#$%&()*+,-./:;<=>?@[\\]^_{|}~');
/** Base64url's characters: a token in a URL's user information. */
const BASE64URL = asciiSet(DIGITS_LETTERS + '_-');

function isIn(set: Uint8Array, c: number): boolean {
  return c < 128 && set[c] === 1;
}

/** Three words in a row, the first perhaps capitalised: `put your unique phrase here`, `this is the…`. */
const PHRASE = /[A-Za-z][a-z]{2,} [a-z]{2,} [a-z]{2,}/;
/**
 * A value filled in at deploy time, as a whole: `{{ … }}`, `${NAME}`, `<%= … %>`, `{% … %}`. Only
 * whole: a generated key holds `{{`…`}}` or `${`…`}` somewhere about one time in ten thousand.
 */
const TEMPLATE = /^\s*(\{\{.*\}\}|\$\{[^}]+\}|<%.*%>|\{%.*%\})\s*$/;
/**
 * Words of a stand-in typed in place of a generated key: long ones in any case, short ones in one
 * case (lower, upper or capitalised), since a random value holds those in some mix of case
 * (`yOuR_`) now and then. `xxxx…` and the like are runs of six.
 */
const STAND_IN_WORD = /example|placeholder|change_?me|replace_?me|generate_?me|unique phrase|redacted/i;
const SHORT_STAND_IN_WORD = /(your|YOUR|Your)[_-]|dummy|DUMMY|Dummy/;

/**
 * Whether generated key material is a stand-in: a phrase such as the WordPress sample config's
 * `put your unique phrase here`, a template, a stand-in word or a run of six. It judges WordPress
 * keys and salts and a JSON Web Key's private members in place of the generic placeholder
 * fragments, which a long random value holds by chance: a WordPress key (every ASCII symbol) has
 * `{{`, `${`, `%s` or `....` about one time in thirty, an RSA JWK's seven members (1,500 base64url
 * characters) a `todo` or `Xxxx` about one time in 1,800. Each test here needs rare bytes in a
 * given order or place: of 200,000 random WordPress keys none, and of 200,000 random RSA JWKs two,
 * were taken for stand-ins.
 */
export function isKeyStandIn(value: string): boolean {
  return PHRASE.test(value) || TEMPLATE.test(value) || STAND_IN_WORD.test(value) || SHORT_STAND_IN_WORD.test(value) || hasRunOfSix(value);
}

/** How far from a JWK member its `kty` may be: an RSA key of 8192 bits is about 6,600 characters. */
const JWK_WINDOW = 8192;
const KTY = /["']kty["']/;

/**
 * Whether the member found at `start` (the value's first character) belongs to a JSON Web Key:
 * a quoted `kty` member, which RFC 7517 requires of every JWK, within {@link JWK_WINDOW}
 * characters either side. The window is bounded, so the cost stays linear in the findings.
 */
export function isJwkMember(text: string, start: number): boolean {
  return KTY.test(text.slice(Math.max(0, start - JWK_WINDOW), start + JWK_WINDOW));
}
