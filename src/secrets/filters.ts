// Host-side judgement the byte engine cannot make: placeholders, vendors' published example
// values, values that are references rather than secrets, and names that say "this is a hash".
// Every check looks at one candidate and a bounded window around it, so the cost stays linear.

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
]);

/** Fragments that mark a value as a stand-in (case-insensitive). */
const PLACEHOLDER_FRAGMENTS = [
  'xxxx', 'example', 'placeholder', 'your_', 'your-', 'yourapi', 'yourtoken', 'yoursecret', 'yourpass', 'insert_', 'insert-',
  'redacted', 'dummy', 'changeme', 'change_me', 'replace_me', 'replaceme', '****', '....', '<', '>', '${', '{{', '}}', '%s',
];

/** Whole values that are defaults or words, not secrets (generic rules and URL passwords). */
const STOP_VALUES = new Set([
  'password', 'passwd', 'pass', 'pwd', 'secret', 'secrets', 'token', 'apikey', 'api_key', 'changeme', 'admin', 'administrator', 'root',
  'guest', 'test', 'testing', 'test1234', 'testpass', 'testpassword', 'default', 'postgres', 'mysql', 'redis', 'rabbitmq', 'mongo', 'user',
  'username', 'none', 'null', 'nil', 'undefined', 'true', 'false', 'required', 'optional', 'string', 'value', 'hunter2', '12345678',
  '123456789', 'qwerty', 'qwertyuiop', 'letmein', 'p@ssw0rd', 'p@ssword', 'password1', 'password123', 'secret123', 'mypassword',
  'mysecret', 'supersecret', 'notasecret', 'sekret', 'foobar', 'foobarbaz', 'abc123', 'abcdefgh', 'welcome1', 'trustno1',
]);

/** Name fragments that say the value is not a credential (hashes, ids, names, paths). */
const NON_SECRET_NAME = /(hash|sha1|sha256|sha512|md5|digest|checksum|integrity|commit|etag|fingerprint|uuid|guid|name|path|file|dir|url|uri|endpoint|type|field|header|format|version|length|count|size|ttl|timeout|expir|policy|scope|prefix|suffix|label|_id$|-id$|id$|ref$)/i;

const REFERENCE = /^(process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|env\.|env\[|ENV\[|System\.getenv|Deno\.env|config\.|settings\.|secrets\.|vars\.|self\.|this\.|props\.|ctx\.|context\.|req\.|request\.|params\.|options\.|opts\.|args\.)/;
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATH_LIKE = /^(\/|\.\.?\/|~\/|[A-Za-z]:\\)|^[\w.-]+\/[\w.-]+\//;
const INTEGRITY = /^(sha1|sha256|sha384|sha512)-/i;
/** `$VAR`, `$VAR/…`, `${…}`, `$(…)`: a shell or template reference. A value such as `$mkz4H*00…` is not one. */
const DOLLAR_REFERENCE = /^\$(\{|\(|[A-Za-z_]\w*(\/|$))/;

/** True when a value looks like a stand-in rather than a credential (any rule). */
export function isPlaceholder(value: string, structural: boolean): boolean {
  if (KNOWN_EXAMPLES.has(value)) return true;
  // Long structural matches (private keys) legitimately contain runs such as AAAAAA.
  if (structural) return false;
  const lower = value.toLowerCase();
  for (const f of PLACEHOLDER_FRAGMENTS) if (lower.includes(f)) return true;
  // A run of six identical characters: `sk-aaaaaa…`, `000000…`. Random tokens almost never have one.
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) ? run + 1 : 1;
    if (run >= 6) return true;
  }
  return false;
}

/** True when a generic `name = value` candidate is not a secret. */
export function isNonSecretAssignment(text: string, start: number, end: number): boolean {
  const value = text.slice(start, end);
  const lower = value.toLowerCase();
  if (STOP_VALUES.has(lower)) return true;
  if (REFERENCE.test(value) || DOTTED_IDENTIFIER.test(value) || UUID.test(value) || PATH_LIKE.test(value) || INTEGRITY.test(value)) {
    return true;
  }
  if (DOLLAR_REFERENCE.test(value) || value.includes('://')) return true;
  const { name, at } = assignedName(text, start);
  // `scheme://name:value@host` is URL userinfo, which the URL rules judge.
  if (at >= 3 && text.slice(at - 3, at) === '://') return true;
  return name !== '' && NON_SECRET_NAME.test(name);
}

/** True when a URL or connection-string password is a default or a reference. */
export function isNonSecretPassword(value: string): boolean {
  const lower = value.toLowerCase();
  return STOP_VALUES.has(lower) || DOLLAR_REFERENCE.test(value) || value.startsWith('%') || lower.startsWith('env:');
}

/**
 * The identifier a value is assigned to: skip back over quotes, blanks and `:`/`=`/`>`, then take
 * the name characters before them (bounded, so a long line costs nothing extra).
 */
function assignedName(text: string, start: number): { name: string; at: number } {
  let i = start;
  const floor = Math.max(0, start - 160);
  while (i > floor && ' \t"\'`]:=>'.includes(text[i - 1]!)) i--;
  const end = i;
  while (i > floor && /[\w.-]/.test(text[i - 1]!)) i--;
  return { name: text.slice(i, end), at: i };
}

/** True when a match sits inside a `data:…;base64,` payload. */
export function insideDataUrl(text: string, start: number): boolean {
  let i = start;
  const floor = Math.max(0, start - 65_536);
  while (i > floor && /[A-Za-z0-9+/=]/.test(text[i - 1]!)) i--;
  return i >= 7 && text.slice(i - 7, i) === 'base64,';
}
