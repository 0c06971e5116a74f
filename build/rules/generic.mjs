// Generic `name = value` assignments. These come last: a specific rule that covers the same span
// wins. Medium confidence: the value is judged by entropy and by the host's stop-word and
// placeholder filters, so a policy of `refuse` can stop a request instead of guessing.
import { C, F, P, above } from './dsl.mjs';

/**
 * What each kind of generic secret is keyed on and how it is judged, shared by its `name = value`
 * rule and its name/value environment-entry rule: keywords, shortest value, least entropy.
 */
const KIND = {
  // The word for password in German, Portuguese, Dutch and French as well. Left out: Spanish
  // contraseña (its first four bytes, `cont`, begin content, context and control: each would be a
  // prefilter hit) and, measured, the Cyrillic, Japanese, Chinese and Korean words (their lead
  // bytes open the SIMD prefilter to all non-ASCII text: +8% core scan time on the labelled corpus).
  password: { keywords: ['password', 'passwd', 'pwd', 'passphrase', 'passwort', 'senha', 'wachtwoord', 'motdepasse', 'mot_de_passe'], minLen: 8, entropy: 2.8 },
  secret: { keywords: ['secret', 'credential', 'creds', 'private_key', 'privatekey', 'signing_key', 'encryption_key', 'master_key', 'hmac_key'], minLen: 12, entropy: 3.3 },
  token: { keywords: ['token'], minLen: 12, entropy: 3.3 },
  // Not `api.key` (Java properties' `weather.api.key=…`): measured, +2% on the real tree's full
  // scan, whose code says `api.` everywhere.
  apiKey: { keywords: ['api_key', 'apikey', 'api-key', 'access_key', 'accesskey', 'auth_key', 'app_key', 'client_key', 'license_key', 'subscription_key', 'subscription-key'], minLen: 12, entropy: 3.3 },
};

/**
 * The keywords environment variables holding each kind are named with (`DB_PASSWORD`, `SMTP_PASS`,
 * `SECRET_KEY`, `GITHUB_TOKEN`, `MAPS_API_KEY`), for the rules that read a variable's name where it
 * ends: an environment read's fallback and shell's default.
 */
const ENV_NAMES = {
  password: ['password', 'passwd', 'pwd', 'pass'],
  secret: ['secret', 'secret_key', 'private_key', 'credential', 'credentials'],
  token: ['token'],
  apiKey: ['api_key', 'apikey', 'access_key', 'app_key'],
};

/** How many blanks may stand on either side of an assignment (values aligned in columns). */
const ALIGN = 32;

/**
 * Between an assignment (or a flag) and its value: blanks, up to {@link ALIGN} (code and
 * configuration align values in columns: gofmt's struct literals, `Password:             "…"`,
 * aligned Ruby and Python hashes, YAML; four missed those), then at most one quote, which opens the
 * value. A second quote would be read as the value's opening one (`"'abc…"` read as a single-quoted
 * value running past its closing `"`), and a `]` as a value's first character left out. The quote
 * may be escaped (`API_KEY = \"…\"` in a Jupyter cell's JSON, JSON inside a JSON string): the core
 * then ends the value before the backslash of its escaped closing quote. Before the quote, a
 * string literal's prefix (Python's `SECRET_KEY = b'…'`, `r"…"`): the core takes it only when a
 * quote follows, so an unquoted value keeps its first letters.
 */
const VALUE_GAP = [['sp', 0, ALIGN], ['strprefix', 0, 2], ['bs', 0, 1], ['quote', 0, 1]];

/**
 * An assignment: `=`, `:`, `:=`, `=>`, and the operators that assign a default or append:
 * Makefile's `?=`, and code's `+=`, `|=`, Ruby's `||=` and C#'s `??=`, which the host counts only
 * before a quoted literal (assignsLiteral); it reads the name past them.
 */
const ASSIGN_OP = [['assignop', 0, 2], ['assign', 1, 2]];

/**
 * Steps of a value whose name ends at the keyword (`DB_PASS=`, `STRIPE_KEY: `): no name characters
 * after it, then the assignment.
 */
const atKeyword = (minLen) => [['qsp', 0, ALIGN], ...ASSIGN_OP, ...VALUE_GAP, ['val', minLen, 256]];

const generic = (id, description, { keywords, minLen, entropy }, examples) => ({
  id,
  description,
  confidence: 'medium',
  keywords,
  ci: true,
  before: null,
  steps: [['ident', 0, 24], ['qsp', 0, ALIGN], ...ASSIGN_OP, ...VALUE_GAP, ['val', minLen, 256]],
  secret: 'last',
  // The value went on past its longest: a byte of its own class follows. A `(` or `[` may follow;
  // the host judges whether the value is a name code calls or indexes (isCallOrIndex).
  after: 'val',
  entropy,
  host: ['assignment'],
  examples,
});

/**
 * A value under an environment-style name ending in `suffix` (`STRIPE_KEY`, `GITHUB_PAT`), in
 * capitals as such names are written: with no kind word in the name, the value itself must look
 * generated (host: 'generated', isGeneratedKey).
 */
const suffixKey = (id, description, suffix, examples) => ({
  ...generic(id, description, { keywords: [suffix], minLen: 16, entropy: 3.3 }, examples),
  ci: false,
  steps: atKeyword(16),
  host: ['assignment', 'generated'],
});

/**
 * The same secret as a name/value entry: the keyword is in the name, and a `value` field follows
 * it after quotes, blanks or a line break (then perhaps commas). Kubernetes manifests, Compose
 * files and CI configs write `- name: API_KEY` then `value: "…"` on the next line; ECS task
 * definitions and JSON env lists `{"name": "DB_PASSWORD", "value": "…"}`, on one line or
 * pretty-printed; .NET config `<add key="ClientSecret" value="…" />`. The host's name filter reads
 * the entry's name, not `value`. (One rule for all these forms: a rule costs a little at every
 * keyword hit.)
 */
const envEntry = (id, description, kind, examples) => ({
  ...generic(id, description, kind, examples),
  // Android's manifest names its attributes `android:name` and `android:value` (a `<meta-data>`
  // entry, on one line or one attribute a line): the prefix may stand before `value`.
  steps: [['ident', 0, 24], ['qspnl', 1, 4], ['qspc', 0, 32], ['androidns', 0, 8], { lit: 'value', ci: true }, ['qsp', 0, 4], ['assign', 1, 2], ...VALUE_GAP, ['val', kind.minLen, 256]],
});

/**
 * The same secret in a declaration with a type between name and value: `const apiKey: string = "…"`
 * (TypeScript), `val apiKey: String = "…"` (Kotlin, Scala), `let apiToken: String = "…"` (Swift),
 * `const API_KEY: &str = "…"` (Rust), `api_key: str = "…"` (Python), `var apiKey string = "…"`
 * (Go), `const char API_TOKEN[] = "…"` (C). The value must be quoted: a typed name given another
 * name or a call is code. The host reads the name past the type (`str` is no name).
 */
const typed = (id, description, kind, examples) => ({
  ...generic(id, description, kind, examples),
  steps: [['ident', 0, 24], ['typesep', 1, 2], ['typed', 1, 48], '=', ['sp', 0, 4], ['quote', 1, 1], ['val', kind.minLen, 256]],
  host: ['assignment', 'declared'],
});

/**
 * The same secret as the default an environment read falls back to when the variable is unset:
 * `process.env.API_KEY || "…"` and `?? "…"` (JavaScript, TypeScript, C#, PHP), `System.getenv("API_TOKEN")
 * ?: "…"` (Kotlin, PHP), `os.getenv("DB_PASSWORD") or "…"` (Python, Lua), `ENV['API_KEY'] || '…'`
 * (Ruby). (Shell's `${DB_PASSWORD:-…}` has rules of its own, below.)
 * The variable's name ends with one of `keywords`: the words environment variables are named with
 * (`SECRET_KEY` among them), fewer than the kind's, since each keyword is one more entry the
 * prefilter checks at every position that begins like it;
 * after it come at most four closing quotes and brackets, a blank, then the operator and a quoted
 * value: an unquoted one is code (a variable, a call). The prefilter passes a keyword to a rule by
 * the bytes that may follow it, position by position; measured, a name run after the keyword (as
 * the other generic rules take) let every identifier holding one (`tokenizer`, `tokens`) through
 * to these rules too (+6% scan time on installed packages), and an operator right after a quote
 * every `"password":` of JSON (+4% on the labelled corpus). So a minified `process.env.API_KEY||"…"`
 * goes unread. The name read is the nearest one holding a keyword, as for a typed declaration.
 */
const fallback = (id, description, kind, keywords, examples) => ({
  ...generic(id, description, { ...kind, keywords }, examples),
  steps: [['closer', 0, 4], ['sp', 1, 4], ['fallback1', 1, 1], ['fallback2', 1, 1], ['sp', 0, 4], ['quote', 1, 1], ['val', kind.minLen, 256]],
  host: ['assignment', 'declared'],
});

/**
 * The same secret as shell's default for an unset variable, `${DB_PASSWORD:-…}`, in scripts,
 * Dockerfiles and Compose files, alone or inside a quoted value (`API_TOKEN="${API_TOKEN:-…}"`,
 * whose whole value the `name = value` rule has already read and found a reference), and as the
 * default it also assigns, `${API_KEY:=…}`. Each keyword is taken with the operator after it, so
 * the prefilter passes only names that end in one right before a `:-` or `:=` (the same first four
 * bytes as the name's other keywords: no new prefilter key). The value ends at the `}`.
 */
const shellDefault = (id, description, kind, keywords, examples) => ({
  ...generic(id, description, kind, examples),
  keywords: keywords.flatMap((k) => [`${k}:-`, `${k}:=`]),
  steps: [['val', kind.minLen, 256]],
  host: ['assignment', 'declared'],
});

/**
 * The words a name holds when it names a secret of each kind, for the rules keyed on a statement
 * rather than on the name (their `nameKeywords`): the kind's keywords, and for passwords also
 * `pass` where it ends the name (`$`): `WIFI_PASS` and `WLAN_PASS` of Arduino sketches, but not
 * `PASSENGER_APP_ENV` or `BYPASS_CACHE`.
 */
const NAME_WORDS = {
  password: [...KIND.password.keywords, 'pass$'],
  secret: KIND.secret.keywords,
  token: KIND.token.keywords,
  apiKey: KIND.apiKey.keywords,
};
/** Every kind's words, for rules whose name may name any kind (a converted literal, a Terraform variable). */
const ANY_KIND_WORDS = [...new Set(Object.values(NAME_WORDS).flat())];

/**
 * The same secret set by a statement that takes a name, then a blank, then the value, with no
 * operator between: Dockerfile's `ENV API_KEY value` (the legacy form; `ENV API_KEY=value` is the
 * assignment rule's), C's `#define API_KEY "…"` (Arduino sketches' WIFI_PASS, BLYNK_AUTH_TOKEN),
 * csh's `setenv API_TOKEN …`, Windows' `setx API_KEY "…"`, Apache's `SetEnv DB_PASSWORD …`, nginx's
 * `fastcgi_param DB_PASSWORD …;` and `proxy_set_header X-Api-Key …;`. The statement is the keyword,
 * case-sensitive and rare, so few positions reach the rule (keyed on the name instead, every
 * keyword hit followed by a blank would: `password reset`, `token expiry`); the name is the word
 * right after it, and the host checks it holds one of the kind's words (`nameKeywords`). An
 * unquoted value ends at a blank: the legacy ENV's value runs to the line's end, but a secret has
 * no blank in it. Measured and left out: fish's `set -gx NAME value` (every `set ` in prose passed
 * the prefilter: +1.5% core scan time on the labelled corpus) and Apache's `RequestHeader set`
 * (keyed on `requ`, every `request` did: +10%).
 */
const STATEMENTS = ['ENV ', '#define ', 'setenv ', 'setx ', 'SetEnv ', 'fastcgi_param ', 'proxy_set_header '];
const statement = (id, description, kind, words, examples) => ({
  ...generic(id, description, kind, examples),
  keywords: STATEMENTS,
  ci: false,
  // Not the end of a longer name (`NODE_ENV production`).
  before: 'word',
  steps: [['ident', 1, 64], ['sp', 1, 8], ['quote', 0, 1], ['val', kind.minLen, 256]],
  nameKeywords: words,
});

/**
 * The same secret as a property's initial value, its name before accessors: C#'s
 * `public string ApiKey { get; set; } = "…";` (and `{ get; }`, `{ get; init; }`), Objective-C's
 * `NSString *apiKey = @"…";` (the `@` made the assignment rule read a one-byte value). Keyed on the
 * syntax (`; } = `, `= @`); the host reads the nearest name on the line that holds a keyword, as for
 * a typed declaration, and checks it holds one of the kind's words.
 */
const initializer = (id, description, kind, words, examples) => ({
  ...generic(id, description, kind, examples),
  keywords: ['; } = ', '= @'],
  ci: false,
  steps: [['quote', 1, 1], ['val', kind.minLen, 256]],
  host: ['assignment', 'declared'],
  nameKeywords: words,
});

/**
 * The same secret as the argument after its quoted name: PHP's `define('DB_PASSWORD', '…')`,
 * defaults of environment reads (`env('DB_PASSWORD', '…')`, `os.environ.get("API_TOKEN", "…")`,
 * `ENV.fetch("CLIENT_SECRET", "…")`, and given by keyword: python-decouple's and django-environ's
 * `config('SECRET_KEY', default='…')`, `os.getenv("DB_PASSWORD", default="…")`), properties and
 * headers set in code
 * (`System.setProperty("…password", "…")`, `Header.Set("X-Api-Key", "…")`). The name must be
 * quoted, so a variable passed along (`hash(password, salt)`) is not read as one; an unquoted
 * value (a variable, a call) does not match.
 */
const argument = (id, description, kind, examples) => ({
  ...generic(id, description, kind, examples),
  // One argument a line, as Black lays a call out (`config(\n    'SECRET_KEY',\n    default='…',\n)`):
  // up to 32 blanks and line breaks after the comma; other keyword arguments before `default=`
  // (`cast=str, `); a string prefix (`default=r'…'`).
  steps: [['ident', 0, 24], ['quote', 1, 1], ['sp', 0, 2], ',', ['ws', 0, ALIGN], ['kwargs', 0, 64], ['strprefix', 0, 2], ['quote', 1, 1], ['bs', 0, 1], ['quote', 0, 1], ['val', kind.minLen, 256]],
  host: ['assignment', 'argument'],
});

/**
 * A password set in SQL: `CREATE USER … IDENTIFIED BY '…'` (MySQL, Oracle), `IDENTIFIED WITH
 * caching_sha2_password BY '…'` (MySQL 8), `WITH [ENCRYPTED] PASSWORD '…'` (PostgreSQL). The value
 * must be quoted, so prose ("log in with password authentication") does not match.
 */
const sql = (id, description, kind, keywords, examples) => ({
  ...generic(id, description, kind, examples),
  keywords,
  steps: [['sp', 1, 4], ['sqlquote', 1, 1], ['val', kind.minLen, 256]],
});

/**
 * A credential passed to a call that takes it by position: `req.SetBasicAuth("user", "…")`,
 * `new NetworkCredential("user", "…")`, `HTTPBasicAuth('user', '…')`, `smtp.login("user", "…")`,
 * `mysqli_connect("host", "user", "…")`, `dataSource.setPassword("…")`. The keyword is the call's
 * name with its parenthesis (or its tail where the name begins with common bytes: `ogin(` for
 * login, `sicauth(` for HTTPBasicAuth and aiohttp's BasicAuth, since `.log`, `http` and `ba`
 * occur everywhere and each occurrence would be checked), `quoted` the number of quoted
 * arguments before the credential; every argument must be a quoted literal, so a variable passed
 * along does not match.
 */
const call = (id, description, kind, keywords, quoted, examples) => ({
  ...generic(id, description, kind, examples),
  keywords,
  steps: [
    ...Array.from({ length: quoted }, () => [['ws', 0, 4], ['quote', 1, 1], ['val', 1, 256], ['quote', 1, 1], ['ws', 0, 4], ',']).flat(),
    ['ws', 0, 4],
    ['quote', 1, 1],
    ['val', kind.minLen, 256],
  ],
});

/**
 * A secret passed by position after `before` arguments, each anything up to its comma (a literal,
 * a variable such as `$dsn`, `url` or `process.env.DB`; bounded, so linear), the secret a quoted
 * literal, after blanks and line breaks as formatters lay arguments out one a line.
 */
const callAfterArgs = (id, description, kind, keywords, before, examples) => ({
  ...generic(id, description, kind, examples),
  keywords,
  steps: [...Array.from({ length: before }, () => [['ws', 0, 32], { until: ',', min: 1, max: 160 }, ',']).flat(), ['ws', 0, 32], ['quote', 1, 1], ['val', kind.minLen, 256]],
});

/**
 * A password passed to a call after its user, by position (`new PasswordAuthentication(user, "…")`,
 * `smtp.PlainAuth("", from, "…", host)`): the user is whatever comes before the first comma (a
 * literal, a variable, a call such as `getUser()` or `os.Getenv("SMTP_USER")`; bounded), the
 * password a quoted literal, after blanks and line breaks as formatters lay arguments out one a
 * line. Read without a name (host: positional): the argument's place says what it is.
 */
const afterUser = (id, description, keywords, examples) => ({
  ...generic(id, description, KIND.password, examples),
  keywords,
  steps: [{ until: ',', min: 1, max: 160 }, ',', ['ws', 0, 32], ['quote', 1, 1], ['val', KIND.password.minLen, 256]],
  host: ['assignment', 'positional'],
});

/**
 * The same secret given to a command-line flag with a space: `--password VALUE`, `--token VALUE`
 * (`--password=VALUE` is the assignment rule's). The flag is the whole keyword, so
 * `--password-stdin` or `--token-file` never match.
 */
const flag = (id, description, kind, keywords, examples) => ({
  ...generic(id, description, kind, examples),
  keywords,
  steps: [['sp', 1, 4], ['quote', 0, 1], ['val', kind.minLen, 256]],
});

/**
 * A password given to a command's short flag: `mysql -u app -pSECRET`, `sshpass -p SECRET ssh …`,
 * `redis-cli -a SECRET`, `docker login -u bot -p SECRET`. A flag of two bytes would be looked at
 * in every hyphenated word, so the rule starts at the command and looks for the flag within the
 * next 256 bytes (an until step: linear); `space` is whether a blank may come between flag and
 * value (mysql takes the value attached: `-p` alone asks for it).
 */
const commandFlag = (id, description, keywords, flagText, space, examples) => ({
  ...generic(id, description, KIND.password, examples),
  keywords,
  steps: [{ until: flagText, min: 0, max: 256 }, flagText, ['sp', 0, space ? 4 : 0], ['quote', 0, 1], ['val', KIND.password.minLen, 128]],
  // The search for the flag crosses lines: the host checks the value's command line names the command.
  host: ['assignment', 'command'],
});

/**
 * A password given to Apache's htpasswd on its command line: `flags`, the steps of its flags (and
 * file) up to the user, then the user and the password. Keyed on `passwd `, whose first bytes the
 * password rules' keywords already have, with the `ht` before it: `ht` begins http everywhere, and
 * a new first pair of bytes opens the SIMD prefilter wider (+1 to 2% scan time on the labelled
 * corpus, measured).
 */
const htpasswd = (id, description, flags, examples) => ({
  ...generic(id, description, KIND.password, examples),
  keywords: ['passwd '],
  ci: false,
  back: ['htback', 2, 2],
  before: 'alnum',
  steps: [['sp', 0, 3], ...flags, ['sp', 1, 4], ['notws', 1, 64], ['sp', 1, 4], ['sqlquote', 0, 1], ['val', KIND.password.minLen, 128]],
  host: ['assignment', 'positional', 'command'],
});

export default [
  // A Google account's app password as Google shows it, four groups of four lowercase letters
  // (Gmail SMTP settings: Django's EMAIL_HOST_PASSWORD, nodemailer's `pass`). The value classes end
  // at a blank, so the generic rules read only its first group.
  {
    ...generic('generic-password-app-password', "Google app password in its displayed form ('abcd efgh ijkl mnop') under a password's name", KIND.password, {
      pos: [
        P('EMAIL_HOST_PASSWORD = "', 'qwkz hrtp lmvn bxcd', '"'),
        P("  auth: { user: 'alerts@acme.dev', pass: '", 'vbnf plrk zuqe tmsy', "' },"),
      ],
      neg: ['EMAIL_HOST_PASSWORD = "xxxx xxxx xxxx xxxx"', 'EMAIL_HOST_PASSWORD = "abcd efgh ijkl mnop"', 'password: "your app password here"'],
    }),
    keywords: [...KIND.password.keywords, 'pass'],
    steps: [['ident', 0, 24], ['qsp', 0, ALIGN], ...ASSIGN_OP, ['sp', 0, ALIGN], ['quote', 1, 1], ['lower', 4, 4], ' ', ['lower', 4, 4], ' ', ['lower', 4, 4], ' ', ['lower', 4, 4], ['quote', 1, 1]],
    secret: [6, 12],
    after: null,
    // Four English words of four letters repeat theirs (`just some text here`: 3.03 bits).
    entropy: 3.1,
  },
  generic('generic-password', 'Password assigned in configuration or code', KIND.password, {
    pos: [
      P('DB_PASSWORD=', F(C.alnum, 16)),
      P('  password: "', F(C.alnum, 12) + '!', '"'),
      P('{"password": "', F(C.alnum, 14), '"}'),
      P('smtp_password = "', F(C.alnum, 20), '"   # toml'),
      P('const dbPassword = \'', F(C.alnum, 16), '\';'),
      // Words before the keyword do not make it something else (they once did: 'uri' in security).
      P('spring.security.user.password=', F(C.alnum, 18)),
      // A Spring placeholder's default ends at its `}`.
      P('@Value("${spring.datasource.password:', F(C.alnum, 16), '}")'),
      P('Passwort: ', F(C.alnum, 16)),
      P('senha = "', F(C.alnum, 14), '"'),
      P('DB_WACHTWOORD=', F(C.alnum, 16)),
      P('mot_de_passe: ', F(C.alnum, 16)),
      P('ACCOUNT_PASSWORD=', F(C.alnum, 16)),
      P('LDAP_DIRECTORY_PASSWORD: "', F(C.alnum, 16), '"'),
      // A quoted value runs to its closing quote: brackets, separators and the other quotes are
      // the password's own characters there (they used to end it, or drop it).
      P('{"password": "', F(C.alnum, 8) + '(;' + F(C.alnum, 6) + '},[' + F(C.alnum, 4), '"}'),
      P("db_password = '", F(C.alnum, 9) + '"!' + F(C.alnum, 7) + '\\' + F(C.alnum, 3), "'"),
      P('const password = `', F(C.alnum, 10) + ')' + F(C.alnum, 10), '`;'),
      // `<` and `>` are a generated password's characters unless they bracket a name.
      P('"password": "', F(C.alnum, 7) + '<9' + F(C.alnum, 5) + '>' + F(C.alnum, 3) + '<', '"'),
      // A dotted quoted value with digits between letters is generated, not a name.
      P('password: "', 'Xk29mPq7zL.' + F(C.alnum, 12), '"'),
      // Unquoted (.env, YAML, INI, properties, XML), a generated value with a `.`, `(` or `[` is one
      // value, not a member chain, a call or an index.
      P('DB_PASSWORD=', 'Xk29mPq7zL.' + F(C.alnum, 12)),
      P('db:\n  password: ', 'Xk29mPq7zL(' + F(C.alnum, 12), '\n'),
      P('spring.datasource.password=', 'Xk29mPq7zL[' + F(C.alnum, 12)),
      P('<password>', 'Xk29mPq7zL.' + F(C.alnum, 6) + '(' + F(C.alnum, 6), '</password>'),
      // A line of configuration keeps a value shaped like a name: INI, properties, .env.
      P('[client]\npassword = ', 'correct_horse_battery_staple', '\n'),
      P('DB_PASSWORD=', 'CorrectHorseBatteryStaple'),
      // Properties and indented INI lines are configuration, whatever the value's shape.
      P('spring.datasource.password = ', 'MyDbPassword', '\n'),
      P('[client]\n\tpassword = ', 'keyboard_cat', '\n'),
      // JSON inside a JSON string (Terraform state, a log line's payload).
      P('{"body": "{\\"user\\": \\"app\\", \\"password\\": \\"', F(C.alnum, 16), '\\"}"}'),
      // Operators that assign a default or append: Makefile's `?=`, Ruby's `||=`, C#'s `??=`.
      P('DB_PASSWORD ?= ', F(C.alnum, 16)),
      P('  @smtp_password ||= "', F(C.alnum, 16), '"'),
      P('options.Password ??= "', F(C.alnum, 16), '";'),
    ],
    neg: [
      // A condition and a fallback are no assignments; a default from code is code.
      'const label = password ? "set" : "unset";',
      'DB_PASSWORD ?= $(shell cat .secrets/db)',
      '@password ||= params[:password]',
      'password_changed_at: 2024-05-01T10:22:31Z',
      'DB_PASSWORD=__DB_PASSWORD__',
      'db_password_secret: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf',
      'password: ${DB_PASSWORD}',
      'password = os.environ["DB_PASSWORD"]',
      'const password = process.env.DB_PASSWORD;',
      'password: changeme',
      'password_hash = "' + F(C.hex, 64) + '"',
      'password = getpass()',
      'password: "<YOUR_PASSWORD>"',
      "passwordInput.value = ''",
      // An empty string: what follows its closing quote is not in a string.
      'n={username:"",password:"",hostname:"",port:""}',
      // Format slots and code in a string.
      'password = f"{prefix}{suffix}"',
      'dsn = "password=%(password)s host=%(host)s"',
      'log("state: "+p+", password: "+n);switch(q[0]){case 1:}',
      // Names code calls or indexes, even when acronyms and digits give them a generated shape.
      'const passwordBuffer = getUInt8Buffer(options.password ?? "");',
      'password = hashPasswordWithSalt(plain)',
      'db_password = vaultSecrets[environmentName]',
      // Shell's `${DB_PASSWORD:-…}` is read by the shell-default rules, without the `-`.
      'PGPASSWORD=${POSTGRES_PASSWORD:-' + F(C.alnum, 16) + '}',
      // Code names with acronyms, types of members.
      '  private password: HTMLInputElement;',
      'interface Options {\n  password: IDataType;\n}',
      // At a line's end, a variable named after a secret assigned in a statement of code: in a
      // function's body, to a member, to a sigilled variable.
      'def reset(user, new_password):\n    password = new_password\n    return password',
      '    self.password = password_hash',
      '  @password = user_password',
      'func f() {\n\tpassword := newPassword\n}',
      // PHP reading a member.
      '$this->password = $request->password;',
      // Escaped quotes around an empty value, and code after an escaped string closed.
      '{"body": "{\\"password\\": \\"\\"}"}',
      'msg = "password: \\"" + n + "\\" is too short"',
      // What a server keeps instead of the password: crypt-format hashes.
      '  "password": "$2b$12$' + F('./' + C.alnum, 53) + '"',
      'password: $argon2id$v=19$m=65536,t=3,p=4$' + F(C.b64, 22) + '$' + F(C.b64, 43),
    ],
  }),
  generic('generic-secret', 'Secret assigned in configuration or code', KIND.secret, {
    pos: [
      P('CLIENT_SECRET=', F(C.alnum, 32)), P('jwt_secret: "', F(C.b64, 44), '"'), P('export APP_SECRET_KEY=', F(C.alnum, 40)), P('STORAGE_ACCOUNT_SECRET=', F(C.alnum, 40)),
      // Python's bytes and raw strings: the prefix is no part of the value, nor the value's name.
      P("app.secret_key = b'", F(C.alnum, 24), "'"), P('SECRET_KEY = rb"', F(C.alnum, 32), '"'),
      // Unquoted, a value's first letters are its own, even those a prefix could have.
      P('CLIENT_SECRET=', 'rb' + F(C.alnum, 30)),
    ],
    neg: [
      'secretary_email: jane.doe@acme-corp.com',
      'JWT_SECRET=please-set-a-long-random-string',
      'secret: "lorem-ipsum-dolor-sit-amet"',
      'secret_arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/payments-Q1w2E3"',
      'secret_name = "prod-db-credentials"', 'secretKeyRef: { name: app-secrets }', 'CLIENT_SECRET=${{ secrets.CLIENT_SECRET }}', 'secret = "xxxxxxxxxxxxxxxxxxxx"', "secret = f'{prefix}-{suffix}-{version}'"],
  }),
  generic('generic-token', 'Token assigned in configuration or code', KIND.token, {
    pos: [P('ACCESS_TOKEN=', F(C.alnum, 40)), P('refresh_token: ', F(C.b64url, 48)), P('"authToken": "', F(C.alnum, 32), '"'), P('SERVICE_ACCOUNT_TOKEN=', F(C.alnum, 40)), P('HASHICORP_VAULT_TOKEN=', F(C.alnum, 40))],
    neg: [
      'tokenizer: meta-llama/Meta-Llama-3-8B-Instruct',
      '"tokenizer_class": "LlamaTokenizerFast"',
      'TOKEN_ADDRESS=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      'token_expires_at = "2031-01-01T00:00:00.000Z"',
      'max_tokens = 4096', 'tokenizer = "cl100k_base"', 'token = self.get_token()', 'csrf_token = request.cookies.get("csrftoken")', 'token: "{{ .Values.token }}"',
      // Strings that hold code: a regex class, a call with a string argument; a key path.
      'const TOKEN_STRINGS = "[A-Za-z0-9._~+/-]+=*";', "url_token: `url('./icon.png')`", '"accessToken": "auth.form.accessToken"',
      // Mapbox's public token (its secret ones begin `sk.`).
      "mapboxgl.accessToken = 'pk.eyJ" + F(C.b64url, 40) + '.' + F(C.b64url, 22) + "';"],
  }),
  generic('generic-api-key', 'API key assigned in configuration or code', KIND.apiKey, {
    pos: [
      P('MAPS_API_KEY=', F(C.alnum, 32)),
      P("apiKey: '", F(C.alnum, 24), "',"),
      P('[service]\napi_key = "', F(C.b64url, 40), '"'),
      P('TYPESENSE_API_KEY=', F(C.alnum, 32)),
      // A Jupyter notebook's cell: the source is JSON, its quotes escaped.
      P('{"cell_type": "code", "source": ["API_KEY = \\"', F(C.alnum, 32), '\\"\\n", "print(1)"]}'),
    ],
    neg: [
      'api_key_env: "ANTHROPIC_API_KEY"',
      'API_KEY=TODO_SET_IN_VAULT_BEFORE_DEPLOY',
      'api_key: vault:secret/data/app#api_key',
      'api_key = os.getenv("API_KEY")', 'apiKey: process.env.API_KEY,', 'api_key = "your-api-key-here"', 'API_KEY=<YOUR_API_KEY>', 'apiKeyHeader = "X-Api-Key"'],
  }),
  {
    // The name ends at the keyword (no name characters after it), so `passport` or `bypass_x`
    // are not read as passwords.
    ...generic('generic-pass', 'Password under a name ending in "pass" (DB_PASS, smtpPass, "pass")', { ...KIND.password, keywords: ['pass'] }, {
      pos: [P('DB_PASS=', F(C.alnum, 16)), P('{"user": "app", "pass": "', F(C.alnum, 14), '"}'), P('const smtpPass = "', F(C.alnum, 18), '";')],
      neg: ['DB_PASS=${DB_PASS}', 'DB_PASSWORD_FILE=/run/secrets/db', 'if ok:\n    pass\nelse: x = "' + F(C.alnum, 16) + '"', 'passport: "' + F(C.alnum, 16) + '"', 'pass: changeme'],
    }),
    steps: atKeyword(KIND.password.minLen),
  },
  // An environment variable named for what the key unlocks (`STRIPE_KEY`, `OPENAI_KEY`, `JWT_KEY`,
  // `SESSION_KEY`, `AZURE_STORAGE_KEY`, `ALGOLIA_ADMIN_KEY`): the name ends at `_KEY`, in capitals
  // as environment variables are written, so `cache_key`, `sortKey` and `KEYBOARD` are not read.
  // With no kind word in the name, the value itself must look generated (host: 'generated',
  // isGeneratedKey): letters and digits, 16 or more characters; and a name for a public or
  // lookup key (`STRIPE_PUBLISHABLE_KEY`, `RECAPTCHA_SITE_KEY`, `CACHE_KEY`) is no secret's.
  suffixKey('generic-key', 'Key under an environment-style name ending in _KEY (STRIPE_KEY, JWT_KEY, SESSION_KEY)', '_KEY', {
    pos: [
      P('STRIPE_KEY=', F(C.alnum, 32)),
      P('JWT_KEY="', F(C.alnum, 40), '"'),
      P('  SESSION_KEY: ', F(C.alnum, 40), '\n'),
      P('AZURE_STORAGE_KEY=', F(C.b64, 86) + '=='),
      P('ALGOLIA_ADMIN_KEY=', F(C.hex, 32)),
      P('{"OPENAI_KEY": "', F(C.alnum, 40), '"}'),
      // Words that only look like other kinds' or lookups' (passport, hash).
      P('PASSPORT_KEY=', F(C.alnum, 32)),
      P('HASH_KEY=', F(C.alnum, 32)),
    ],
    neg: [
      'STRIPE_PUBLISHABLE_KEY=pk_live_' + F(C.alnum, 24),
      // A publishable key is public whatever its name.
      'STRIPE_KEY=pk_live_' + F(C.alnum, 24),
      // Names of things, not keys: a storage slot, a query, a GPG key's public fingerprint.
      'const STORAGE_KEY = "persist:root:v12345";',
      "const QUERY_KEY = 'userProfileQuery2';",
      'ENV GPG_KEY=' + F(C.HEX, 40),
      'RECAPTCHA_SITE_KEY=' + F(C.alnum, 40),
      'VAPID_PUBLIC_KEY=' + F(C.b64url, 87),
      'CACHE_KEY=user-profile-cache-version',
      'PRIMARY_KEY=id',
      'const IDEMPOTENCY_KEY = "' + F(C.alnum, 24) + '";',
      'SESSION_KEY=${SESSION_KEY}',
      'JWT_KEY=please-change-this-in-production',
      'SORT_KEY=created_at_descending_order',
      'cache_key = "' + F(C.alnum, 24) + '"',
    ],
  }),
  // A personal access token under an environment-style name ending in `_PAT`, as code hosts'
  // docs name them (`GITHUB_PAT`, `CR_PAT`, Azure CLI's `AZURE_DEVOPS_EXT_PAT`): judged as
  // generic-key's values are (the value must look generated; a 52-character lowercase base32
  // value, Azure DevOps's classic PAT, does). In capitals only: `url_pat` and `filePat` name
  // patterns.
  suffixKey('generic-pat', 'Personal access token under an environment-style name ending in _PAT (GITHUB_PAT, AZURE_DEVOPS_EXT_PAT)', '_PAT', {
    pos: [
      P('AZURE_DEVOPS_EXT_PAT=', F('abcdefghijklmnopqrstuvwxyz234567', 52)),
      P('export CR_PAT="', F(C.alnum, 36), '"'),
      P('  GH_PAT: ', F(C.alnum, 40), '\n'),
    ],
    neg: [
      'CR_PAT=${{ secrets.CR_PAT }}',
      'GITHUB_PAT=your-personal-access-token',
      'const FILE_PAT = "**/*.test.ts";',
      "url_pat = '" + F(C.alnum, 24) + "'",
      'AZURE_DEVOPS_EXT_PAT=' + 'x'.repeat(52),
    ],
  }),
  typed('generic-password-typed', 'Password in a declaration with a type (TypeScript, Kotlin, Swift, Scala, Rust, Python, Go, C)', KIND.password, {
    pos: [
      P('const dbPassword: string = "', F(C.alnum, 16), '";'),
      P("static DB_PASSWORD: &'static str = \"", F(C.alnum, 16), '";'),
      P('var smtpPassword string = "', F(C.alnum, 16), '"'),
      P('    admin_password: Final[str] = "', F(C.alnum, 16), '"'),
    ],
    neg: [
      'password: string;',
      'const password: string = process.env.DB_PASSWORD!;',
      'password_hash: str = "' + F(C.hex, 64) + '"',
      'const password: string = "changeme";',
      'const check = (password: string) => password.length > 8;',
      'let password: String = String::from(input);',
    ],
  }),
  typed('generic-secret-typed', 'Secret in a declaration with a type (TypeScript, Kotlin, Swift, Scala, Rust, Python, Go, C)', KIND.secret, {
    pos: [P('private readonly clientSecret: string = \'', F(C.alnum, 32), "';"), P('val clientSecret: String = "', F(C.alnum, 32), '"')],
    neg: ['clientSecret: string = "${CLIENT_SECRET}"', 'const secretName: string = "prod-db-credentials";', 'secret: SecretStr = Field(default=None)'],
  }),
  typed('generic-token-typed', 'Token in a declaration with a type (TypeScript, Kotlin, Swift, Scala, Rust, Python, Go, C)', KIND.token, {
    pos: [P('let apiToken: String = "', F(C.alnum, 40), '"'), P('const char API_TOKEN[] = "', F(C.alnum, 40), '";'), P('API_TOKEN: Final[str] = "', F(C.alnum, 40), '"')],
    neg: ['const maxTokens: number = 4096;', 'tokenizer: str = "cl100k_base"', 'let tokenType: String = "bearer-authorization"'],
  }),
  typed('generic-api-key-typed', 'API key in a declaration with a type (TypeScript, Kotlin, Swift, Scala, Rust, Python, Go, C)', KIND.apiKey, {
    pos: [P('const API_KEY: &str = "', F(C.alnum, 32), '";'), P('export const apiKey: string = \'', F(C.alnum, 32), "';"), P('api_key: str = "', F(C.alnum, 32), '"')],
    neg: ['const apiKey: string = import.meta.env.VITE_API_KEY;', 'api_key: Optional[str] = None', 'const apiKeyHeader: string = "X-Api-Key";'],
  }),
  fallback('generic-password-fallback', 'Password as the default of an environment read (|| ?? ?: or)', KIND.password, ENV_NAMES.password, {
    pos: [
      P('const dbPassword = process.env.DB_PASSWORD || "', F(C.alnum, 16), '";'),
      P("  password: process.env['DB_PASSWORD'] ?? '", F(C.alnum, 16), "',"),
      P('password = os.getenv("DB_PASSWORD") or "', F(C.alnum, 16), '"'),
      P('$password = getenv(\'SMTP_PASSWORD\') ?: \'', F(C.alnum, 16), "';"),
      P("const smtpPass = process.env.SMTP_PASS || '", F(C.alnum, 16), "';"),
    ],
    neg: [
      'const password = process.env.DB_PASSWORD || "";',
      'const password = process.env.DB_PASSWORD || defaultPassword;',
      'password = os.getenv("DB_PASSWORD") or "changeme"',
      'const password = process.env.PASSWORD_MIN_LENGTH || "1234567890";',
      'if (!password || "" === password) return;',
    ],
  }),
  fallback('generic-secret-fallback', 'Secret as the default of an environment read (|| ?? ?: or)', KIND.secret, ENV_NAMES.secret, {
    pos: [
      P('const secret = import.meta.env.VITE_CLIENT_SECRET || `', F(C.alnum, 32), '`;'),
      P('JWT_SECRET = ENV["JWT_SECRET"] || "', F(C.b64, 44), '"'),
      P("SECRET_KEY = os.environ.get('SECRET_KEY') or '", F(C.alnum, 40), "'"),
    ],
    neg: ['const secretName = process.env.SECRET_NAME || "prod-db-credentials";', 'secret: process.env.SESSION_SECRET || "your-session-secret-here",'],
  }),
  fallback('generic-token-fallback', 'Token as the default of an environment read (|| ?? ?: or)', KIND.token, ENV_NAMES.token, {
    pos: [P("const token = process.env.GITHUB_TOKEN ?? '", F(C.alnum, 40), "';"), P('val token = System.getenv("API_TOKEN") ?: "', F(C.alnum, 40), '"')],
    neg: ['const maxTokens = process.env.MAX_TOKENS || "4096000000000";', 'const tokenType = process.env.TOKEN_TYPE || "bearer-authorization";', 'token = request.headers.get("x-token") or generate_token()'],
  }),
  fallback('generic-api-key-fallback', 'API key as the default of an environment read (|| ?? ?: or)', KIND.apiKey, ENV_NAMES.apiKey, {
    pos: [P('const API_KEY = process.env.API_KEY || "', F(C.alnum, 32), '";'), P('var apiKey = Environment.GetEnvironmentVariable("API_KEY") ?? "', F(C.alnum, 32), '";'), P("API_KEY = os.environ.get('MAPS_API_KEY') or '", F(C.alnum, 32), "'")],
    neg: ['const apiKey = process.env.API_KEY || config.apiKey;', 'const apiKey = process.env.API_KEY ?? "<YOUR_API_KEY>";', 'apiKeyHeader: process.env.API_KEY_HEADER || "X-Api-Key-Header"'],
  }),
  shellDefault("generic-password-shell-default", "Password as a shell variable's default (${DB_PASSWORD:-…})", KIND.password, ENV_NAMES.password, {
    pos: [
      P('PGPASSWORD=${POSTGRES_PASSWORD:-', F(C.alnum, 16), '}'),
      P('      POSTGRES_PASSWORD: "${POSTGRES_PASSWORD:-', F(C.alnum, 16), '}"'),
      P('export DB_PASS="${DB_PASS:-', F(C.alnum, 16), '}"'),
    ],
    neg: ['PGPASSWORD=${POSTGRES_PASSWORD:-}', 'PGPASSWORD="${POSTGRES_PASSWORD:-$DEFAULT_DB_PASSWORD}"', 'MIN=${PASSWORD_MIN_LENGTH:-1234567890}', 'PASSWORD=${DB_PASSWORD:-changeme}'],
  }),
  shellDefault("generic-secret-shell-default", "Secret as a shell variable's default (${CLIENT_SECRET:-…})", KIND.secret, ENV_NAMES.secret, {
    pos: [P('CLIENT_SECRET="${CLIENT_SECRET:-', F(C.alnum, 32), '}"'), P('      SECRET_KEY: ${SECRET_KEY:-', F(C.alnum, 40), '}')],
    neg: ['SECRET_NAME=${SECRET_NAME:-prod-db-credentials}'],
  }),
  shellDefault("generic-token-shell-default", "Token as a shell variable's default (${API_TOKEN:-…})", KIND.token, ENV_NAMES.token, {
    pos: [P('export API_TOKEN="${API_TOKEN:-', F(C.alnum, 40), '}"'), P('  --header "X-Token: ${TOKEN:-', F(C.alnum, 40), '}"')],
    neg: ['MAX_TOKENS=${MAX_TOKENS:-4096000000000}', 'TOKEN=${TOKEN:-${GITHUB_TOKEN}}'],
  }),
  shellDefault("generic-api-key-shell-default", "API key as a shell variable's default (${API_KEY:-…})", KIND.apiKey, ENV_NAMES.apiKey, {
    pos: [P('API_KEY=${API_KEY:-', F(C.alnum, 32), '}'), P('export API_KEY="${API_KEY:=', F(C.alnum, 32), '}"')],
    neg: ['API_KEY=${API_KEY:-your-api-key-here}', ': "${API_KEY:=$DEFAULT_API_KEY}"'],
  }),
  statement('generic-password-statement', 'Password set by a statement (Dockerfile ENV NAME value, #define, setenv, setx, SetEnv, fastcgi_param, proxy_set_header)', KIND.password, NAME_WORDS.password, {
    pos: [
      P('FROM postgres:16\nENV POSTGRES_PASSWORD ', F(C.alnum, 16), '\n'),
      P('#define WIFI_PASS "', F(C.alnum, 12), '"'),
      P('#define WLAN_PASSWORD  "', F(C.alnum, 14), '"  // router'),
      P('setenv DB_PASSWD ', F(C.alnum, 16)),
      P('setenv SMTP_PASSWORD ', F(C.alnum, 16)),
      P('setx ADMIN_PWD "', F(C.alnum, 16), '" /M'),
      P('SetEnv DB_PASSWORD ', F(C.alnum, 16)),
      P('    fastcgi_param DB_PASSWORD ', F(C.alnum, 16), ';'),
    ],
    neg: [
      'ENV PASSWORD_FILE /run/secrets/db_password',
      'ENV POSTGRES_PASSWORD ${POSTGRES_PASSWORD}',
      'ENV PASSENGER_APP_ENV production',
      '#define PASSWORD_MIN_LENGTH 12345678',
      '#define MAX_PASSWORD_LEN (64)',
      '#define WIFI_PASS "changeme"',
      'ENV NODE_ENV production\nRUN echo password',
      'ARG NODE_ENV password1234',
      'setenv DB_PASSWORD $DB_PASSWORD',
      '    fastcgi_param DB_PASSWORD $db_password;',
    ],
  }),
  statement('generic-secret-statement', 'Secret set by a statement (Dockerfile ENV NAME value, #define, setenv, setx, SetEnv, fastcgi_param, proxy_set_header)', KIND.secret, NAME_WORDS.secret, {
    pos: [P('ENV CLIENT_SECRET ', F(C.alnum, 32)), P('#define HMAC_KEY "', F(C.alnum, 32), '"'), P('SetEnv APP_SECRET "', F(C.b64, 44), '"')],
    neg: ['ENV SECRET_NAME prod-db-credentials', '#define SECRET_KEY_SIZE 32', 'ENV CLIENT_SECRET ${CLIENT_SECRET}', '#define SIGNING_KEY_PATH "/etc/app/signing.pem"'],
  }),
  statement('generic-token-statement', 'Token set by a statement (Dockerfile ENV NAME value, #define, setenv, setx, SetEnv, fastcgi_param, proxy_set_header)', KIND.token, NAME_WORDS.token, {
    pos: [P('#define BLYNK_AUTH_TOKEN "', F(C.alnum, 32), '"'), P('ENV HF_TOKEN ', F(C.alnum, 34)), P('setenv GITHUB_TOKEN ', F(C.alnum, 40))],
    neg: ['ENV TOKENIZERS_PARALLELISM false', '#define TOKEN_TYPE "bearer-authorization"', '#define MAX_TOKENS 4096000000000', 'ENV HF_TOKEN_PATH /run/secrets/hf_token'],
  }),
  statement('generic-api-key-statement', 'API key set by a statement (Dockerfile ENV NAME value, #define, setenv, setx, SetEnv, fastcgi_param, proxy_set_header)', KIND.apiKey, NAME_WORDS.apiKey, {
    pos: [
      P('ENV MAPS_API_KEY ', F(C.alnum, 32)),
      P('#define API_KEY "', F(C.alnum, 32), '"'),
      P('setx API_KEY "', F(C.alnum, 32), '"'),
      P('setenv OPENWEATHER_API_KEY ', F(C.hex, 32)),
      P('    proxy_set_header X-Api-Key ', F(C.alnum, 32), ';'),
    ],
    neg: ['ENV API_KEY_HEADER X-Api-Key-Header-Name', '#define API_KEY "your-api-key-here"', '    proxy_set_header X-Api-Key $http_x_api_key;', 'setx API_KEY "%API_KEY%"', 'ENV API_KEY_FILE /run/secrets/api_key'],
  }),
  initializer('generic-password-initializer', "Password as a property's initial value (C# { get; set; } = \"…\", Objective-C @\"…\")", KIND.password, NAME_WORDS.password, {
    pos: [P('public string Password { get; set; } = "', F(C.alnum, 16), '";'), P('NSString *dbPassword = @"', F(C.alnum, 16), '";')],
    neg: ['public string Password { get; set; } = "";', 'public string PasswordPolicy { get; set; } = "Strong-Password-Policy";', 'NSString *passwordHint = @"Your first pets name";', 'public string Password { get; set; } = "changeme";'],
  }),
  initializer('generic-secret-initializer', "Secret as a property's initial value (C# { get; set; } = \"…\", Objective-C @\"…\")", KIND.secret, NAME_WORDS.secret, {
    pos: [P('public string ClientSecret { get; init; } = "', F(C.alnum, 32), '";'), P('static NSString * const kClientSecret = @"', F(C.alnum, 32), '";')],
    neg: ['public string SecretName { get; set; } = "prod-db-credentials";', 'public string ClientSecret { get; set; } = "${CLIENT_SECRET}";'],
  }),
  initializer('generic-token-initializer', "Token as a property's initial value (C# { get; set; } = \"…\", Objective-C @\"…\")", KIND.token, NAME_WORDS.token, {
    pos: [P('public string AccessToken { get; } = "', F(C.alnum, 40), '";'), P('NSString *apiToken = @"', F(C.alnum, 40), '";')],
    neg: ['public string TokenType { get; set; } = "bearer-authorization";', 'public string KeyVaultName { get; set; } = "' + F(C.alnum, 40) + '";'],
  }),
  initializer('generic-api-key-initializer', "API key as a property's initial value (C# { get; set; } = \"…\", Objective-C @\"…\")", KIND.apiKey, NAME_WORDS.apiKey, {
    pos: [P('public string ApiKey { get; set; } = "', F(C.alnum, 32), '";'), P('NSString *apiKey = @"', F(C.alnum, 32), '";')],
    neg: ['public string ApiKeyHeader { get; set; } = "X-Api-Key-Header-Name";', 'public string ApiKey { get; set; } = "your-api-key-here";', 'NSString *apiKey = @"";'],
  }),
  // Also keyed on `pass` (`- name: DB_PASS`): its bytes begin `password`, so the prefilter has
  // them already; the host's name judgement tells DB_PASS from PASSENGER_NAME.
  envEntry('generic-password-env-entry', 'Password as a name/value entry (Kubernetes, Compose, CI, ECS, .NET appSettings)', { ...KIND.password, keywords: [...KIND.password.keywords, 'pass'] }, {
    pos: [
      P('      - name: DB_PASSWORD\n        value: "', F(C.alnum, 16), '"'),
      P('            - name: DB_PASS\n              value: ', F(C.alnum, 16), '\n'),
      P('- name: "SMTP_PASSWORD"\r\n  value: ', F(C.alnum, 14)),
      P('<add key="DbPassword" value="', F(C.alnum, 16), '" />'),
      P('{"name": "DB_PASSWORD", "value": "', F(C.alnum, 14), '"}'),
      P('{\n  "name": "DB_PASSWORD",\n  "value": "', F(C.alnum, 14), '"\n}'),
    ],
    neg: [
      '      - name: DB_PASSWORD\n        valueFrom:\n          secretKeyRef: { name: db, key: password }',
      '      - name: DB_PASSWORD\n        value: "${DB_PASSWORD}"',
      '      - name: PASSWORD_MIN_LENGTH\n        value: "12345678901"',
      '      - name: PASSENGER_APP_ENV\n        value: "' + F(C.alnum, 16) + '"',
      // `pass` inside a word is no password's name.
      '      - name: BYPASS\n        value: "' + F(C.alnum, 16) + '"',
      '<add key="DbPassword" value="" />',
      '{"name": "DB_PASSWORD", "valueFrom": "arn:aws:ssm:eu-west-1:1:parameter/db"}',
      '<add key="PasswordMinLength" value="1234567890" />',
      '{\n  "name": "PASSWORD_MIN_LENGTH",\r\n  "value": "1234567890"\n}',
    ],
  }),
  envEntry('generic-secret-env-entry', 'Secret as a name/value entry (Kubernetes, Compose, CI, ECS, .NET appSettings)', KIND.secret, {
    pos: [
      P('        - name: CLIENT_SECRET\n          value: "', F(C.alnum, 36), '"'),
      P('  - name: JWT_SIGNING_KEY\n    value: ', F(C.b64, 44)),
      P('<add key="ClientSecret" value="', F(C.alnum, 32), '" />'),
      P('{ "name": "JWT_SECRET", "value": "', F(C.b64, 44), '" }'),
    ],
    neg: [
      '        - name: CLIENT_SECRET\n          value: "{{ .Values.clientSecret }}"',
      '        - name: SECRET_NAME\n          value: "prod-db-credentials"',
      '        - name: CLIENT_SECRET\n          value: "xxxxxxxxxxxxxxxxxxxx"',
      '<add key="SecretName" value="prod-db-credentials" />',
      '<add key="ClientSecret" value="{{ client_secret }}" />',
    ],
  }),
  envEntry('generic-token-env-entry', 'Token as a name/value entry (Kubernetes, Compose, CI, ECS, .NET appSettings)', KIND.token, {
    pos: [P('      - name: API_TOKEN\n        value: "', F(C.alnum, 44), '"'), P('<add key="ApiToken" value="', F(C.alnum, 40), '" />'), P('{"name": "SLACK_TOKEN", "value": "', F(C.alnum, 36), '"}')],
    neg: [
      '      - name: MAX_TOKENS\n        value: "4096"',
      '      - name: TOKEN_TTL_SECONDS\n        value: "86400000000000"',
      '      - name: API_TOKEN\n        value: "$(cat /run/secrets/token)"',
      '<add key="TokenTtlSeconds" value="86400000000000" />',
      'function f(a,b){return a.token=b.token,a.value+b.value}',
    ],
  }),
  envEntry('generic-api-key-env-entry', 'API key as a name/value entry (Kubernetes, Compose, CI, ECS, .NET appSettings)', KIND.apiKey, {
    pos: [
      P('      - name: DATADOG_API_KEY\n        value: "', above(C.hex, 32, 3.5), '"'),
      P('      - name: API_KEY\n        value: ', F(C.alnum, 26)),
      P('<add key="MapsApiKey" value="', F(C.alnum, 32), '" />'),
      P('{"name": "API_KEY", "value": "', F(C.hex, 32), '"}'),
      // An Android manifest's `<meta-data>`, one attribute a line.
      P('        <meta-data\n            android:name="com.acme.maps.API_KEY"\n            android:value="', F(C.alnum, 32), '" />'),
    ],
    neg: [
      '      - name: API_KEY\n        valueFrom:\n          secretKeyRef:\n            name: api',
      '      - name: API_KEY_HEADER\n        value: "X-Api-Key-Header-Name"',
      '      - name: API_KEY\n        value: "your-api-key-here"',
      '<add key="ApiKeyHeader" value="X-Api-Key-Header-Name" />',
      '<meta-data android:name="com.acme.API_KEY" android:value="@string/maps_api_key" />',
      '<meta-data android:name="com.acme.API_KEY" android:value="${MAPS_API_KEY}" />',
    ],
  }),
  // The same secret in an Apple property list (an iOS app's Info.plist, a configuration .plist): a
  // `<string>` after the `<key>` naming it, on the next line as Xcode writes them. Keyed on the
  // key's end tag (rare outside property lists), so a key of any kind reaches it; the host reads
  // the key's text as the name (assignedName), which must hold one of the kinds' words. One rule
  // for every kind, with the password's bounds.
  {
    ...generic('generic-secret-plist', 'Password, secret, token or API key in a property list (<key>API_SECRET</key> <string>…</string>)', KIND.password, {
      pos: [
        P('\t<key>API_SECRET</key>\n\t<string>', F(C.alnum, 32), '</string>'),
        P('<key>ClientSecret</key>\n<string>', F(C.b64url, 40), '</string>'),
        P('    <key>SMTPPassword</key>\n    <string>', F(C.alnum, 14), '</string>'),
        P('<key>MapsApiKey</key><string>', F(C.alnum, 39), '</string>'),
      ],
      neg: [
        '<key>CFBundleIdentifier</key>\n<string>' + F(C.alnum, 32) + '</string>',
        '<key>NSFaceIDUsageDescription</key>\n<string>Unlock your saved passwords</string>',
        '<key>API_SECRET</key>\n<string>$(API_SECRET)</string>',
        '<key>TokenRefreshInterval</key>\n<string>86400000000</string>',
      ],
    }),
    // Keyed on `key>` with `</` before it: `</` would be a new first pair for the SIMD prefilter.
    keywords: ['key>'],
    ci: false,
    back: ['ltslash', 2, 2],
    steps: [['ws', 0, 16], '<string>', ['val', KIND.password.minLen, 256]],
    nameKeywords: ANY_KIND_WORDS,
  },
  argument('generic-password-argument', "Password as the argument after its quoted name (define('DB_PASSWORD', …), env defaults, setProperty)", KIND.password, {
    pos: [
      P("define('DB_PASSWORD', '", F(C.alnum, 16), "');"),
      P('db = os.environ.get("SMTP_PASSWORD", "', F(C.alnum, 14), '")'),
      P('System.setProperty("javax.net.ssl.keyStorePassword", "', F(C.alnum, 18), '");'),
      P("'password' => env('DB_PASSWORD', '", F(C.alnum, 16), "'),"),
      P('DB_PASSWORD = os.getenv("DB_PASSWORD", default="', F(C.alnum, 16), '")'),
    ],
    neg: [
      "define('DB_PASSWORD', '');",
      "EMAIL_HOST_PASSWORD = config('EMAIL_HOST_PASSWORD', default='')",
      // Another keyword argument is no value of the name (argparse's help text).
      "parser.add_argument('--password', help='" + F(C.alnum, 16) + "')",
      "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
      'os.environ.get("DB_PASSWORD", "changeme")',
      "digest = bcrypt.hash(password, '" + F(C.alnum, 22) + "')",
      "define('PASSWORD_MIN_LENGTH', '12345678901');",
    ],
  }),
  argument('generic-secret-argument', 'Secret as the argument after its quoted name (env defaults, properties, headers set in code)', KIND.secret, {
    pos: [
      P('client_secret = ENV.fetch("CLIENT_SECRET", "', F(C.alnum, 32), '")'),
      P('props.put("oauth.client.secret", "', F(C.b64url, 40), '");'),
      // python-decouple's and django-environ's defaults, the Django settings' usual line.
      P("SECRET_KEY = config('SECRET_KEY', default='", 'django-insecure-' + F(C.lownum, 40), "')"),
      P("SECRET_KEY = config(\n    'SECRET_KEY',\n    default=r'", F(C.alnum, 40), "',\n)"),
      P('SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="', F(C.alnum, 50), '")'),
      // Other keyword arguments before the default: a cast, on one line or one a line.
      P("SECRET_KEY = config('SECRET_KEY', cast=str, default='", F(C.alnum, 50), "')"),
      P('SECRET_KEY = config(\n    "SECRET_KEY",\n    cast=str,\n    default="', F(C.alnum, 50), '",\n)'),
    ],
    neg: [
      'ENV.fetch("CLIENT_SECRET", nil)',
      "SECRET_KEY = config('SECRET_KEY', cast=str, default=None)",
      // Keyword arguments other than default=: argparse's type and help text.
      "parser.add_argument('--client-secret', type=str, help='" + F(C.alnum, 24) + "')",
      'config.get("client_secret", "<YOUR_CLIENT_SECRET>")',
      'props.put("secret.name", "prod-db-credentials");',
      "SECRET_KEY = config('SECRET_KEY', default=None)",
      "SECRET_KEY = env('SECRET_KEY', default='change-me-in-production')",
    ],
  }),
  argument('generic-token-argument', 'Token as the argument after its quoted name (os.Setenv, env defaults)', KIND.token, {
    pos: [P('os.Setenv("API_TOKEN", "', F(C.alnum, 40), '")'), P("$token = getenv('GITHUB_TOKEN', '", F(C.alnum, 36), "');")],
    neg: [
      'os.Setenv("API_TOKEN", token)',
      "env('API_TOKEN', null)",
      'cfg.set("token_ttl_seconds", "86400000000000")',
      // A keyword argument of default='s letters that is not default=: the body posted, no value of the name.
      "resp = session.post('/api/token', data='" + F(C.alnum, 24) + "')",
    ],
  }),
  argument('generic-api-key-argument', 'API key as the argument after its quoted name (headers set in code, env defaults)', KIND.apiKey, {
    pos: [
      P('req.Header.Set("X-Api-Key", "', F(C.alnum, 32), '")'),
      P('client.DefaultRequestHeaders.Add("x-api-key", "', F(C.alnum, 32), '");'),
      P("'key' => env('MAPS_API_KEY', '", F(C.alnum, 32), "'),"),
      // Gradle puts a value in an Android app's BuildConfig or resources: the name is the second
      // argument, the type's the first; BuildConfig's string carries its own escaped quotes.
      P('        buildConfigField "String", "MAPS_API_KEY", "\\"', F(C.alnum, 32), '\\""'),
      P('        buildConfigField("String", "API_KEY", "\\"', F(C.alnum, 32), '\\"")'),
      P('        resValue "string", "api_key", "', F(C.alnum, 32), '"'),
    ],
    neg: [
      'req.Header.Set("X-Api-Key", apiKey)',
      'headers.set("x-api-key", process.env.API_KEY)',
      "env('MAPS_API_KEY', '')",
      'req.Header.Set("X-Api-Key", "your-api-key-here")',
      'buildConfigField "String", "API_KEY", "\\"${apiKey}\\""',
      'buildConfigField("String", "API_KEY", "\\"" + localProperties["API_KEY"] + "\\"")',
      'buildConfigField("String", "API_KEY", "\\"\\"")',
      // A list of strings, and a call other than Gradle's, have the same shape.
      'fields = ["String", "api_key", "' + F(C.alnum, 32) + '"]',
      'pick(row, "String", "api_key", "' + F(C.alnum, 32) + '")',
    ],
  }),
  flag('generic-password-flag', 'Password given to a command-line flag (--password VALUE, gpg --passphrase VALUE, keytool -storepass VALUE)', KIND.password, ['--password', '--passwd', '--passphrase', '-storepass', 'keypass'], {
    pos: [P('docker login -u bot --password ', F(C.alnum, 20), ' registry.acme.dev'), P('mysql --user=app --password "', F(C.alnum, 16), '" app'), P('keytool -importcert -keystore app.jks -storepass ', F(C.alnum, 16), ' -file ca.pem'), P('gpg --batch --pinentry-mode loopback --passphrase "', F(C.alnum, 20), '" -d secrets.gpg')],
    neg: ['echo "$PW" | docker login -u bot --password-stdin', 'mysql --password $DB_PASSWORD', 'tool --password changeme', 'tool --password-file ./pw.txt', 'keytool -list -keystore cacerts -storepass changeit'],
  }),
  commandFlag('generic-password-mysql-cli', 'Password attached to the MySQL clients\' -p flag (mysql -u app -pSECRET)', ['mysql'], ' -p', false, {
    pos: [P('mysql -h db.acme.internal -u app -p', F(C.alnum, 16), ' app_prod'), P("mysqldump -u backup -p'", F(C.alnum, 18), "' --all-databases > all.sql")],
    neg: ['mysql -u root -p app_prod', 'mysql -h db -P 3306 -u app -p$MYSQL_PASSWORD app', 'mysql://app:${DB_PASSWORD}@db/app', 'mysql -u app --port 3306 -p'],
  }),
  commandFlag('generic-password-sshpass', 'Password given to sshpass -p', ['sshpass'], ' -p', true, {
    pos: [P('sshpass -p ', F(C.alnum, 16), ' ssh deploy@10.0.0.5'), P("sshpass -p'", F(C.alnum, 14), "' scp build.tgz ci@host:/srv")],
    neg: ['sshpass -e ssh deploy@host', 'sshpass -f ~/.pw ssh deploy@host', 'sshpass -p "$SSHPASS" ssh deploy@host'],
  }),
  commandFlag('generic-password-redis-cli', 'Password given to redis-cli -a', ['redis-cli'], ' -a', true, {
    pos: [P('redis-cli -h cache.acme.internal -a ', F(C.alnum, 20), ' ping'), P('redis-cli --tls -a "', F(C.alnum, 24), '" info')],
    neg: ['redis-cli -h cache -a "$REDIS_PASSWORD" ping', 'redis-cli --askpass -h cache ping'],
  }),
  commandFlag('generic-password-docker-login', 'Password given to docker login -p', ['docker login'], ' -p', true, {
    pos: [P('docker login -u ci-bot -p ', F(C.alnum, 24), ' registry.acme.dev')],
    neg: ['docker login -u ci-bot -p $REGISTRY_PASSWORD registry.acme.dev', 'echo "$PW" | docker login -u ci-bot --password-stdin'],
  }),
  // ASP.NET's JWT settings in appsettings.json: `"Jwt": { "Key": "…", "Issuer": … }`, the signing
  // key under a bare `Key` (its templates' and guides' shape; `"SecretKey"` is the generic rule's).
  // Read from the section's `{` to its first member ending in `Key`, not past its `}`; a `K` before
  // it (`"KeyId"`, `"Kestrel"`) ends the search. The member must be the key's (`Key`,
  // `SigningKey`, `IssuerSigningKey`, `SecretKey`, …).
  {
    ...generic('generic-secret-jwt-section', 'JWT signing key in an ASP.NET settings section ("Jwt": { "Key": "…" })', { keywords: [], minLen: 12, entropy: 3.3 }, {
      pos: [
        P('{\n  "Jwt": {\n    "Key": "', F(C.alnum, 32), '",\n    "Issuer": "https://api.acme.dev"\n  }\n}'),
        P('"JwtSettings": { "Issuer": "acme", "Audience": "acme-web", "SigningKey": "', F(C.b64, 44), '" }'),
      ],
      neg: [
        '"Jwt": { "Issuer": "acme" },\n"Cache": { "Key": "' + F(C.alnum, 32) + '" }',
        '{"jwt": {"localStorageKey": "' + F(C.alnum, 24) + '"}}',
        '"Jwt": { "HeaderKey": "X-Authorization-Token-' + F(C.alnum, 12) + '" }',
        '"Jwt": { "Key": "@Microsoft.KeyVault(VaultName=acme-kv;SecretName=JwtKey)" }',
        '"Jwt": { "Key": "", "Issuer": "acme" }',
        '"Jwt": { "Key": "your-secret-key-goes-here" }',
        'var key = builder.Configuration["Jwt:Key"];',
      ],
    }),
    // Keyed on the section's name after its opening quote (`"j` would be a new first pair for the
    // SIMD prefilter), whole: `jwt` alone, a short keyword, is expanded by the byte after it into
    // 64 keys that open the prefilter's fourth byte to anything (+5% scan time, measured).
    keywords: ['jwt"', 'jwtsettings"', 'jwtoptions"', 'jwtconfig"'],
    back: ['quote', 1, 1],
    steps: [['sp', 0, 4], ':', ['ws', 0, 8], '{', ['notbracek', 0, 512], 'Key"', ['sp', 0, 4], ':', ['sp', 0, 4], ['quote', 1, 1], ['val', 12, 256]],
    host: ['assignment'],
    // The member must name the signing key: `localStorageKey`, `CacheKey` and `HeaderKey` name other things.
    nameKeywords: ['^key$', '^signingkey$', '^issuersigningkey$', '^secretkey$', '^symmetrickey$', '^securitykey$', '^jwtkey$'],
  },
  // Apache's htpasswd in batch mode (-b) takes the password as its last argument: `htpasswd -bc
  // /etc/nginx/.htpasswd admin …`. Three words after the flags: file, user, password (without -b
  // it asks, and there is no third). The file holds a `.` or a `/`, so prose about the flag
  // (`htpasswd -b creates entries non-interactively`) does not read as file, user and password.
  htpasswd('generic-password-htpasswd', 'Password given to htpasswd -b (htpasswd -bc FILE USER PASSWORD)', [['htflags', 2, 16], ['nodotslash', 0, 128], ['dotslash', 1, 1], ['notws', 0, 255]], {
    pos: [P('RUN htpasswd -bc /etc/nginx/.htpasswd admin ', F(C.alnum, 16)), P("htpasswd -b -B ./auth/htpasswd ci '", F(C.alnum, 18), "'")],
    neg: [
      'htpasswd -c /etc/nginx/.htpasswd admin',
      'htpasswd -bc /etc/nginx/.htpasswd admin "$ADMIN_PASSWORD"',
      'htpasswd -bc .htpasswd admin changeme',
      'Run htpasswd -b creates entries non-interactively',
    ],
  }),
  // htpasswd -n writes the entry to stdout and takes no file: `htpasswd -nb USER PASSWORD`, the
  // recipe Traefik's and Caddy's docs give for a basic-auth label. Its flags must hold `n`, so this
  // and the rule above never read one command.
  htpasswd('generic-password-htpasswd-stdout', 'Password given to htpasswd -nb (htpasswd -nb USER PASSWORD)', ['-', ['htnflags', 0, 6], 'n', ['htnflags', 0, 6]], {
    pos: [P('echo $(htpasswd -nb admin ', F(C.alnum, 16), ') | sed -e s/\\$/\\$\\$/g'), P("htpasswd -nbB traefik '", F(C.alnum, 18), "'")],
    neg: [
      'htpasswd -nB admin > users.htpasswd',
      'htpasswd -nb admin "$TRAEFIK_PASSWORD"',
      'htpasswd -nb user password',
      'htpasswd -n prints the entry to standard output instead',
    ],
  }),
  // SQL Server's sqlcmd (and bcp) take the password as a capital `-P`; a lowercase `-p` there
  // prints statistics.
  commandFlag('generic-password-sqlcmd', 'Password given to sqlcmd -P or bcp -P', ['sqlcmd', 'bcp '], ' -P', true, {
    pos: [P('sqlcmd -S db.acme.internal -U sa -P ', F(C.alnum, 20), ' -Q "SELECT 1"'), P("bcp dbo.users out users.dat -S db -U loader -P '", F(C.alnum, 16), "' -c")],
    neg: ['sqlcmd -S db -U sa -P "$SA_PASSWORD" -Q "SELECT 1"', 'sqlcmd -S db -E -p -Q "SELECT 1"', 'sqlcmd -S db -U sa -P <YourStrong@Passw0rd>'],
  }),
  // MongoDB's shell and tools: `-p` is the password (with `-u`), given after a blank.
  commandFlag('generic-password-mongo-cli', 'Password given to mongosh or the MongoDB tools (mongodump, mongorestore, mongoexport, mongoimport) with -p', ['mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport'], ' -p', true, {
    pos: [P('mongosh "mongodb://db.acme.internal:27017/app" -u admin -p ', F(C.alnum, 18), ' --authenticationDatabase admin'), P('mongodump --host db -u backup -p "', F(C.alnum, 16), '" --out /backups')],
    neg: ['mongosh "mongodb://db:27017" -u admin -p "$MONGO_PASSWORD"', 'mongodump --host db -u backup -p', 'mongorestore --port 27017 /backups'],
  }),
  // Azure CLI: `az login -u … -p …` takes a password, or a service principal's secret.
  commandFlag('generic-password-az-login', "Password or client secret given to az login -p", ['az login'], ' -p', true, {
    pos: [P('az login --service-principal -u http://ci-app -p ', F(C.alnum, 34), ' --tenant acme.onmicrosoft.com'), P('az login -u ops@acme.dev -p "', F(C.alnum, 16), '"')],
    neg: ['az login --service-principal -u $APP_ID -p $CLIENT_SECRET --tenant $TENANT', 'az login --identity', 'az login -u ops@acme.dev -p <password>'],
  }),
  // Any registry or platform login that takes `-u USER -p PASSWORD` as docker's does: podman,
  // buildah, skopeo, nerdctl, oras and crane, `helm registry login`, OpenShift's `oc login`, Cloud
  // Foundry's `cf login`. Keyed on `ogin -u ` (`logi` would be a hit in every login form's code;
  // `ogin` is a first four bytes the login( call rule has), so the user comes right after login.
  commandFlag('generic-password-cli-login', 'Password given to a command-line login with -u and -p (podman, buildah, skopeo, oras, helm registry, oc, cf login)', ['ogin -u ', 'ogin --username '], ' -p', true, {
    pos: [
      P('podman login -u ci-bot -p ', F(C.alnum, 24), ' quay.io'),
      P("helm registry login -u robot$ci --password-stdin=false -p '", F(C.alnum, 20), "' harbor.acme.dev"),
      P('oc login -u developer -p ', F(C.alnum, 16), ' https://api.crc.testing:6443'),
      P('cf login -u ops@acme.dev -p "', F(C.alnum, 18), '" -o acme -s prod'),
    ],
    neg: [
      'podman login -u ci-bot -p "$REGISTRY_PASSWORD" quay.io',
      'oc login -u developer -p developer https://api.crc.testing:6443',
      'echo "$TOKEN" | podman login -u ci-bot --password-stdin quay.io',
      'cf login -u ops@acme.dev\nmkdir -p ' + F(C.alnum, 16),
    ],
  }),
  // Server config directives that take the password after a blank: redis.conf's requirepass and
  // masterauth, nslcd's and pam_ldap's bindpw. Keyed on their tails: `requ`, `mast` and `bind`
  // begin words everywhere (require, request, master, binding), and each would be a prefilter hit
  // (+6% core scan time on the labelled corpus, measured).
  flag('generic-password-directive', 'Password in a config directive (redis.conf requirepass / masterauth, LDAP bindpw)', KIND.password, ['irepass', 'erauth', 'ndpw'], {
    pos: [P('bind 127.0.0.1\nrequirepass ', F(C.alnum, 24), '\n'), P('masterauth "', F(C.alnum, 20), '"'), P('binddn cn=nslcd,dc=acme,dc=dev\nbindpw ', F(C.alnum, 16), '\n')],
    neg: ['# requirepass foobared', 'requirepass ${REDIS_PASSWORD}', 'masterauth <master-password>', 'CONFIG SET requirepass ""'],
  }),
  flag('generic-secret-flag', 'Secret given to a command-line flag (--client-secret VALUE, aws configure set aws_secret_access_key VALUE)', KIND.secret, ['--client-secret', '--secret-key', 'aws_secret_access_key'], {
    pos: [
      P('az login --service-principal -u app --client-secret ', F(C.alnum, 34), ' --tenant t'),
      P('tool --secret-key ', F(C.b64url, 40)),
      P('aws configure set aws_secret_access_key ', F(C.b64, 40), ' --profile ci'),
    ],
    neg: [
      'kubectl create secret generic db --secret prod-db-credentials',
      'tool --client-secret "${CLIENT_SECRET}"',
      'tool --client-secret-file /run/secrets/app',
      'Set aws_secret_access_key and aws_access_key_id in ~/.aws/credentials.',
    ],
  }),
  flag('generic-token-flag', 'Token given to a command-line flag (--token VALUE, ngrok add-authtoken VALUE)', KIND.token, ['--token', '--auth-token', '--access-token', '--api-token', 'add-authtoken', 'ngrok authtoken'], {
    pos: [P('vault login --token ', F(C.alnum, 28), ' -method=token'), P('gh-cli --auth-token=x --access-token ', F(C.alnum, 40)), P('ngrok config add-authtoken ', '2' + F(C.alnum, 26) + '_' + F(C.alnum, 21))],
    neg: ['tool --token $GITHUB_TOKEN', 'tool --token-file ~/.config/token', 'tool --token <token>'],
  }),
  // PowerShell's parameters take one dash: `nuget push -ApiKey`, `Publish-Module -NuGetApiKey`.
  flag('generic-api-key-flag', 'API key given to a command-line flag (--api-key VALUE, az storage --account-key VALUE, PowerShell -ApiKey VALUE)', KIND.apiKey, ['--api-key', '--apikey', '--access-key', '--account-key', '-apikey', '-nugetapikey'], {
    pos: [
      P('Publish-Module -Path ./Acme -NuGetApiKey ', F(C.alnum, 32), ' -Repository PSGallery'),
      P('nuget push Acme.1.0.0.nupkg -ApiKey "', F(C.alnum, 32), '" -Source https://nuget.acme.dev/v3/index.json'),
      P('newrelic-cli --api-key ', F(C.alnum, 32), ' deploy'),
      P('tool --apikey "', above(C.hex, 32, 3.4), '"'),
      P('az storage blob upload --account-name acct --account-key ', F(C.b64, 86) + '==', ' -c c'),
    ],
    neg: [
      'tool --api-key "$API_KEY"', 'tool --api-key-header X-Api-Key-Header-Name', 'tool --api-key your-api-key-here',
      'Publish-Module -Path ./Acme -NuGetApiKey $env:NUGET_API_KEY', 'curl -H "X-ApiKey: $TOKEN" https://api.acme.dev',
    ],
  }),
  sql('generic-password-sql', "Password set in SQL (IDENTIFIED BY '…', WITH PASSWORD '…')", KIND.password, ['identified by', 'password by', 'password'], {
    pos: [
      P("CREATE USER 'app'@'%' IDENTIFIED BY '", F(C.alnum, 16), "';"),
      P("ALTER USER 'app'@'localhost' IDENTIFIED WITH caching_sha2_password BY '", F(C.alnum, 14), "';"),
      P("CREATE ROLE app WITH LOGIN ENCRYPTED PASSWORD '", F(C.alnum, 18), "';"),
      P('CREATE USER reporting WITH PASSWORD "', F(C.alnum, 12), '"'),
    ],
    neg: [
      "CREATE USER app IDENTIFIED BY 'changeme';",
      "CREATE ROLE app WITH PASSWORD '';",
      "CREATE USER app WITH PASSWORD '${DB_PASSWORD}';",
      'Log in with password authentication enabled',
      'the relative or absolute URL identified by `_endpointUrl`.',
      "ALTER USER app PASSWORD 'short';",
    ],
  }),
  call('generic-password-call', 'Password passed by position after a user name (SetBasicAuth, NetworkCredential, HTTPBasicAuth, aiohttp.BasicAuth, login)', KIND.password, ['setbasicauth(', 'networkcredential(', 'sicauth(', 'pdigestauth(', 'ogin(', 'auth=('], 1, {
    pos: [
      P('req.SetBasicAuth("admin", "', F(C.alnum, 16), '")'),
      P('var cred = new NetworkCredential("svc_backup", "', F(C.alnum, 14), '");'),
      P("auth = HTTPBasicAuth('svc', '", F(C.alnum, 16), "')"),
      P("async with aiohttp.ClientSession(auth=aiohttp.BasicAuth('svc-metrics', '", F(C.alnum, 16), "')) as session:"),
      P('server.login("alerts@acme.io", "', F(C.alnum, 16), '")'),
      P('r = requests.get(url, auth=("admin", "', F(C.alnum, 18), '"))'),
    ],
    neg: ['req.SetBasicAuth(user, pass)', 'req.SetBasicAuth("admin", os.Getenv("ADMIN_PASSWORD"))', "aiohttp.BasicAuth('svc', os.environ['METRICS_PASSWORD'])", 'server.login("alerts@acme.io", "changeme")', 'auth=("admin", "")', 'page.login("Sign in", "Forgot password?")'],
  }),
  // PHP's `new PDO(dsn, user, password)` and Java's `DriverManager.getConnection(url, user,
  // password)` too: a DSN's `;` and a URL's `:` and `/` are read inside its quotes. Keyed on the
  // class, not on `getConnection(` (whose first bytes, `getc`, begin getClass and getContext).
  {
    // Not inside a longer name (`$this->getPdo(…)`, `getMysqli(`).
    ...callAfterArgs('generic-password-connect', 'Password passed by position to a database connect call (mysqli_connect, new mysqli, new PDO, DriverManager.getConnection, new Sequelize)', KIND.password, ['mysqli_connect(', 'mysql_connect(', 'mysqli(', 'pdo(', 'drivermanager.getconnection(', 'sequelize('], 2, {
      pos: [
        P('$conn = mysqli_connect("localhost", "root", "', F(C.alnum, 14), '", "shop");'),
        P("$db = new mysqli('db', 'app', '", F(C.alnum, 16), "');"),
        P("$pdo = new PDO('mysql:host=localhost;dbname=shop', 'root', '", F(C.alnum, 16), "');"),
        P('Connection c = DriverManager.getConnection("jdbc:mysql://localhost:3306/shop", "root", "', F(C.alnum, 18), '");'),
        P("const sequelize = new Sequelize('shop', 'app', '", F(C.alnum, 16), "', { host: 'db', dialect: 'postgres' });"),
        // Earlier arguments given as variables or expressions (fixed values: F() draws would move
        // every later rule's examples).
        P('$db = new PDO($dsn, "root", "', 'Xk9vQ2mZp7LwR4tY8uB3nC6d', '");'),
        P('Connection c = DriverManager.getConnection(url, "root", "', 'Hq3ZrT8wVb2NkL6pYs4D', '");'),
        P('$conn = mysqli_connect($host, $user, "', 'Pw7Lx2Qz9Rk4Mn8Vt3Bs', '", "shop");'),
        P("const sequelize = new Sequelize(process.env.DB_NAME, 'root', '", 'Tz5Kq8Wm2Xr7Pn4Vb9Lc', "', { dialect: 'mysql' });"),
        P("$pdo = new PDO(\n    $dsn,\n    $user,\n    '", 'Gh4Jk8Lm2Nb6Vc9Xz3Qw', "'\n);"),
      ],
      neg: [
        '$conn = mysqli_connect($host, $user, $pass);',
        "$db = new mysqli('db', 'app', getenv('DB_PASSWORD'));",
        '$conn = mysqli_connect("localhost", "root", "");',
        "$pdo = new PDO($dsn, $user, $password);",
        "$pdo = new PDO('mysql:host=localhost;dbname=shop', 'root', getenv('DB_PASSWORD'));",
        // A method whose name ends in the keyword.
        "$db = $this->getPdo('mysql', 'reporting', 'analytics_readonly');",
        'Connection c = DriverManager.getConnection(url, "root", password);',
        "const sequelize = new Sequelize('database', 'username', 'password', { dialect: 'mysql' });",
        "const sequelize = new Sequelize(process.env.DB_NAME, process.env.DB_USER, process.env.DB_PASSWORD);",
        "new Sequelize('shop', 'app', process.env.DB_PASSWORD, { dialect: 'postgres' })",
        '$conn = mysqli_connect($host, $user, $password, "shop");',
        '$pdo = new PDO($dsn, $user, "");',
        'Connection c = DriverManager.getConnection(url, props);',
        '$pdo = new PDO(sprintf("mysql:host=%s;dbname=%s", $host, $name), $user, $pass);',
        "$conn = mysqli_connect($host, $user, 'password', 'shop');",
      ],
    }),
    before: 'alnum',
  },
  // Basic credentials built in code: `'Basic ' + btoa('user:…')`, Python's
  // `base64.b64encode(b'user:…')`. (Node's `Buffer.from('user:…')` is not read: keyed on its
  // first bytes, every Buffer in Node code would be a prefilter hit.) The password ends at the
  // string's closing quote, past escaped ones (host: 'encodedPair'). Keyed on the
  // calls' tails (`toa(`, `encode(`) with `b` or `b64` before them, whose first bytes other
  // keywords have: a new first pair opens the SIMD prefilter wider.
  {
    ...generic('generic-password-basic-encode', "user:password encoded for Basic authentication in code (btoa('user:…'), b64encode(b'user:…'))", { keywords: [], minLen: 8, entropy: 2.8 }, {
      pos: [
        P("headers: { Authorization: 'Basic ' + btoa('admin:", F(C.alnum, 16), "') }"),
        P('auth = base64.b64encode(b"svc-reports:', F(C.alnum, 18), '").decode()'),
        P("token = base64.b64encode('api:", F(C.alnum, 20), "'.encode())"),
        // Atlassian's and Zendesk's users are emails; an escaped quote is the password's own.
        P("btoa('ops@acme.dev:", F(C.alnum, 24), "')"),
        P("btoa('admin:", F(C.alnum, 10) + "\\'" + F(C.alnum, 8), "')"),
      ],
      neg: [
        "btoa('admin:' + password)",
        'btoa(`${user}:${pass}`)',
        'base64.b64encode(b"user:password")',
        "btoa('Hello, world:  this is text')",
        // A Relay global id (`Type:id`), a URN, a digest, a list of colon-separated parts.
        "const id = btoa('Organization:" + F(C.hex, 24) + "');",
        "b64encode(b'urn:ietf:params:oauth:grant-type:jwt-bearer')",
        "btoa('sha256:" + F(C.hex, 64) + "')",
        "btoa('cache:v2:users:list:page=" + F(C.alnum, 8) + "')",
      ],
    }),
    keywords: ['toa(', 'encode('],
    back: ['b64back', 1, 3],
    before: 'alnum',
    steps: [['strprefix', 0, 1], ['quote', 1, 1], ['basicuser', 1, 64], ':', ['inquote', 8, 128]],
    host: ['assignment', 'positional', 'encodedPair'],
  },
  // An Arduino or ESP sketch joining a WiFi network: the SSID, then its passphrase. Keyed on
  // `begin(` (its first bytes other keywords have) with `WiFi.` before it.
  {
    ...call('generic-password-wifi', 'WiFi passphrase given to WiFi.begin("ssid", "…") in an Arduino or ESP sketch', KIND.password, ['begin('], 1, {
      pos: [
        P('  WiFi.begin("Workshop-2G", "', F(C.alnum, 16), '");'),
        // An SSID holds blanks, punctuation and non-ASCII letters.
        P('WiFi.begin("FRITZ!Box 7590 Café", "', F(C.alnum, 16), '");'),
      ],
      neg: ['WiFi.begin(ssid, password);', 'WiFi.begin("MyNetwork", "YOUR_WIFI_PASSWORD");', 'Serial.begin(115200);', 'db.begin("tx", "' + F(C.alnum, 16) + '");'],
    }),
    ci: false,
    back: ['wifi', 5, 5],
    // The SSID is a C string: any bytes to its closing double quote on the line.
    steps: [['ws', 0, 4], '"', ['ssid', 1, 96], '"', ['ws', 0, 4], ',', ['ws', 0, 4], ['quote', 1, 1], ['val', KIND.password.minLen, 256]],
  },
  call('generic-password-setter', 'Password given to a setter or wrapper (setPassword("…"), SecretStr("…"))', KIND.password, ['setpassword(', 'secretstr('], 0, {
    pos: [P('dataSource.setPassword("', F(C.alnum, 16), '");'), P("config.setPassword('", F(C.alnum, 12), "')"), P('password: SecretStr = SecretStr("', F(C.alnum, 16), '")')],
    neg: ['dataSource.setPassword(password);', 'dataSource.setPassword(System.getenv("DB_PASSWORD"));', 'user.setPassword("")'],
  }),
  call('generic-token-call', 'Token passed to a call that sends it as a bearer token (.bearer_auth("…"))', KIND.token, ['.bearer_auth('], 0, {
    pos: [P('client.get(url).bearer_auth("', F(C.alnum, 40), '")')],
    neg: ['client.get(url).bearer_auth(&token)', 'client.get(url).bearer_auth("${TOKEN}")'],
  }),
  // .NET's HttpClient line: `new AuthenticationHeaderValue("Bearer", "…")`, the scheme first. Keyed
  // on the whole name, whose first bytes `authorization` already has.
  {
    ...call('generic-token-header-value', 'Credentials given to .NET\'s AuthenticationHeaderValue after the scheme (new AuthenticationHeaderValue("Bearer", "…"))', KIND.token, ['authenticationheadervalue('], 1, {
      pos: [
        P('client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "', F(C.alnum, 24), '");'),
        P('request.Headers.Authorization = New AuthenticationHeaderValue("Basic", "', btoa('svc:' + F(C.alnum, 16)), '")'),
      ],
      neg: ['new AuthenticationHeaderValue("Bearer", token)', 'new AuthenticationHeaderValue("Bearer", "<access-token>")', 'new AuthenticationHeaderValue("Bearer", $"{token}")'],
    }),
    // The argument before the credentials is the scheme, not their name.
    host: ['assignment', 'positional'],
  },
  // A signing secret given to a JWT library with the claims or token before it: jsonwebtoken's
  // jwt.sign(payload, '…') and jwt.verify(token, '…'), PyJWT's jwt.encode(payload, '…') and
  // jwt.decode(token, '…'). The first argument is whatever comes before the first comma (bounded).
  {
    ...generic('generic-secret-jwt-call', "JWT signing secret passed to jwt.sign / verify / encode / decode", { keywords: [], minLen: 8, entropy: 2.8 }, {
      pos: [
        P('const token = jwt.sign({ sub: user.id }, "', F(C.alnum, 24), '", { expiresIn: "1h" });'),
        P("const claims = jwt.verify(req.headers.authorization, '", F(C.alnum, 16), "');"),
        P('encoded = jwt.encode(payload, "', F(C.alnum, 20), '", algorithm="HS256")'),
      ],
      neg: ['jwt.sign(payload, process.env.JWT_SECRET)', "jwt.sign(payload, 'your-secret-key')", 'jwt.decode(token, options={"verify_signature": False})', "jwt.sign(payload, '')"],
    }),
    keywords: ['jwt.sign(', 'jwt.verify(', 'jwt.encode(', 'jwt.decode('],
    steps: [{ until: ',', min: 1, max: 200 }, ',', ['ws', 0, 4], ['quote', 1, 1], ['val', 8, 256]],
    host: ['assignment', 'positional'],
  },
  // Keyed on `hmac(` (create's `crea` begins words everywhere: each would be a prefilter hit).
  {
    ...call('generic-secret-hmac-call', "HMAC key given to crypto.createHmac('sha256', '…')", { keywords: [], minLen: 8, entropy: 2.8 }, ['hmac('], 1, {
      pos: [P("const sig = crypto.createHmac('sha256', '", F(C.alnum, 24), "').update(body).digest('hex');")],
      neg: ["crypto.createHmac('sha256', secret)", "crypto.createHmac('sha256', process.env.WEBHOOK_SECRET)", "crypto.createHmac('sha256', 'changeme')"],
    }),
    // The argument before the key is the algorithm, not the key's name.
    host: ['assignment', 'positional'],
  },
  {
    ...generic('generic-password-oracle-cli', 'Password in an Oracle client login (sqlplus user/password@db, expdp, impdp, sqlldr)', KIND.password, {
      pos: [P('sqlplus -s app_owner/', F(C.alnum, 16), '@//db.acme.internal:1521/ORCLPDB1 @deploy.sql'), P('expdp system/', F(C.alnum, 14), ' directory=DUMP dumpfile=app.dmp')],
      neg: ['sqlplus / as sysdba', 'sqlplus -s app/$ORACLE_PASSWORD@db @x.sql', 'sqlplus scott/tiger@orcl', 'sqlplus /nolog', 'sqlplus app_owner/<password>@db'],
    }),
    keywords: ['sqlplus', 'expdp', 'impdp', 'sqlldr'],
    steps: [{ until: '/', min: 1, max: 64 }, '/', ['urlpass', KIND.password.minLen, 128]],
    after: 'urlpass',
  },
  // PowerShell: ConvertTo-SecureString "…" -AsPlainText -Force puts the password in the script. Keyed
  // on its tail: `conv` begins convert everywhere in code, and each such position would be a hit.
  // The string may be named: `ConvertTo-SecureString -String "…"`, a second keyword at the same place.
  sql('generic-password-securestring', 'Password in ConvertTo-SecureString "…" -AsPlainText', KIND.password, ['to-securestring', 'to-securestring -string'], {
    pos: [
      P('$pw = ConvertTo-SecureString "', F(C.alnum, 16), '" -AsPlainText -Force'),
      P("$cred = New-Object PSCredential('svc', (ConvertTo-SecureString '", F(C.alnum, 14), "' -AsPlainText -Force))"),
      P("$secure = ConvertTo-SecureString -String '", F(C.alnum, 16), "' -AsPlainText -Force"),
    ],
    neg: ['$pw = ConvertTo-SecureString $env:SVC_PASSWORD -AsPlainText -Force', 'ConvertTo-SecureString "changeme" -AsPlainText -Force', '$pw = ConvertTo-SecureString -String $plain -AsPlainText -Force'],
  }),
  // A secret declared as a literal turned into bytes or an owned string: Go's
  // `var jwtKey = []byte("…")` (every Go JWT guide's signing key), Rust's `String::from("…")`, and
  // C#'s `new SymmetricSecurityKey(Encoding.UTF8.GetBytes("…"))` (ASP.NET's JWT setup). The
  // assignment rules read `[]byte(` as the value, a call, so code. Here the keyword is the
  // conversion (`]byte`, `g::from`) or the key's type, whose first bytes few positions share:
  // measured, `getbytes(` and Node's `Buffer.from(` (keyed `r.from(`) opened the prefilter's
  // buckets to `ge` and `r.` everywhere, +3% scan time on the labelled corpus. The name is the
  // nearest one on the line holding a keyword, as for a typed declaration, and must hold one of
  // the kinds' words or name a signing key.
  {
    ...generic('generic-secret-converted', 'Secret, token, password or signing key declared as a literal converted to bytes or a string (Go []byte("…"), Rust String::from("…"), C# new SymmetricSecurityKey(Encoding.UTF8.GetBytes("…")))', { keywords: [], minLen: 12, entropy: 3.3 }, {
      pos: [
        P('var jwtKey = []byte("', F(C.alnum, 24), '")'),
        P('\tjwtSecret := []byte("', F(C.alnum, 32), '")'),
        P('        IssuerSigningKey = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("', F(C.alnum, 32), '")),'),
        P('let api_token = String::from("', F(C.alnum, 40), '");'),
      ],
      neg: [
        'var jwtKey = []byte(os.Getenv("JWT_SECRET"))',
        'jwtSecret := []byte("your-256-bit-secret")',
        'cacheKey := []byte("' + F(C.alnum, 24) + '")',
        'var key = Encoding.UTF8.GetBytes(builder.Configuration["Jwt:Key"]);',
        'let token_bytes = Vec::from(token.as_bytes());',
        'let token = TokenKind::from("' + F(C.alnum, 16) + '");',
        'let token = String::from("unexpected token found");',
        'let password = String::from(input.trim());',
      ],
    }),
    // Rust's as `g::from`: String's, not any type's (`TokenKind::from("…")`, `Vec::from`).
    keywords: [']byte', 'g::from', 'securitykey('],
    // The conversion's name, when the keyword is the key's type (`SymmetricSecurityKey(`), then its
    // parenthesis and the literal.
    steps: [['ident', 0, 32], '(', ['quote', 1, 1], ['val', 12, 256]],
    host: ['assignment', 'declared'],
    nameKeywords: [...ANY_KIND_WORDS, 'jwtkey', 'jwt_key', 'signingkey', 'hmackey', 'securitykey'],
  },
  // A Terraform variable's default: `variable "db_password" { … default = "…" }`. The name is the
  // block's label, lines above the value, so the rule is keyed on the block (`variable "`, rare in
  // other text) and searches on for an attribute line `  default` as `terraform fmt` writes it (a
  // description that says "default" is not such a line); the host reads the label back from the
  // value, within the same block (no `}` opening a line between them), and it must hold a kind's
  // word. Values are judged as a password's (8 characters, 2.8 bits): the label says what it is.
  // Left out: one-line blocks and attributes indented otherwise than by two blanks.
  {
    ...generic('generic-secret-terraform-default', 'Password, secret, token or API key as the default of a Terraform variable named for one (variable "db_password" { default = "…" })', KIND.password, {
      pos: [
        P('variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "', above(C.alnum, 20, 3.3), '"\n}\n'),
        P('variable "api_token" {\n  description = "Token for the API; the default is for staging"\n  default = "', above(C.alnum, 32, 3.3), '"\n}\n'),
        P('variable "stripe_secret_key" {\r\n  type = string\r\n  default = "', above(C.alnum, 24, 3.3), '"\r\n}\r\n'),
      ],
      neg: [
        // Another block's default, after the variable's block closed.
        'variable "db_password" {\n  type = string\n}\n\nvariable "region" {\n  default = "' + above(C.alnum, 16, 3.3) + '"\n}\n',
        'variable "db_password" {\n  type = string\n}\n\nlocals {\n  default = "' + above(C.alnum, 16, 3.3) + '"\n}\n',
        'variable "db_password" {\n  default = var.fallback_password\n}\n',
        'variable "db_password" {\n  default = "changeme"\n}\n',
        'variable "admin_password" {\n  default = "${random_password.admin.result}"\n}\n',
        'variable "token_ttl" {\n  default = "' + above(C.alnum, 16, 3.3) + '"\n}\n',
        'variable "instance_type" {\n  default = "' + above(C.alnum, 16, 3.3) + '"\n}\n',
      ],
    }),
    keywords: ['variable "'],
    ci: false,
    before: 'word',
    steps: [['ident', 1, 64], '"', ['sp', 0, 4], '{', { until: '\n  default', min: 0, max: 1024 }, '\n  default', ['sp', 0, 16], '=', ['sp', 0, 4], ['quote', 1, 1], ['val', KIND.password.minLen, 256]],
    host: ['assignment', 'label'],
    nameKeywords: ANY_KIND_WORDS,
  },
  // Credentials built from a user and a password by a client library: JavaMail's
  // `new PasswordAuthentication("user", "…")` (an Authenticator's answer), Apache HttpClient's
  // `new UsernamePasswordCredentials("user", "…")`. Keyed on the whole names, whose first bytes
  // `password` already has.
  afterUser('generic-password-credentials-call', 'Password given by position to a credentials object (new PasswordAuthentication("user", "…"), UsernamePasswordCredentials)', ['passwordauthentication(', 'passwordcredentials('], {
    pos: [
      P('        return new PasswordAuthentication("alerts@acme.io", "', F(C.alnum, 16), '");'),
      P('return new java.net.PasswordAuthentication(username, "', F(C.alnum, 16), '".toCharArray());'),
      P('provider.setCredentials(AuthScope.ANY, new UsernamePasswordCredentials("svc-deploy", "', F(C.alnum, 18), '"));'),
      P('return new PasswordAuthentication(props.getProperty("mail.user"), "', F(C.alnum, 16), '");'),
      P('return new PasswordAuthentication(\n    "alerts@acme.io",\n    "', F(C.alnum, 16), '");'),
    ],
    neg: [
      'return new PasswordAuthentication(username, password);',
      'return new PasswordAuthentication("alerts@acme.io", password.toCharArray());',
      'new UsernamePasswordCredentials("svc-deploy", System.getenv("DEPLOY_PASSWORD"))',
      'return new PasswordAuthentication("user@example.com", "password");',
      'new UsernamePasswordCredentials(user, pass); log.info("x", "' + F(C.alnum, 16) + '")',
    ],
  }),
  // pika's (RabbitMQ) `pika.PlainCredentials('user', '…')`. Keyed on `credentials(`, whose first
  // bytes the secret rules' `credential` has, with five bytes of `Plain` before it (a class: any
  // of P, l, a, i, n): `pl` would be a new first pair of bytes for the SIMD prefilter.
  {
    ...afterUser('generic-password-plain-credentials', "Password given to pika's PlainCredentials('user', '…') (RabbitMQ)", ['credentials('], {
      pos: [
        P("credentials = pika.PlainCredentials('orders', '", F(C.alnum, 16), "')"),
        P("credentials = pika.PlainCredentials(os.environ['MQ_USER'], '", F(C.alnum, 16), "')"),
        P("credentials = pika.PlainCredentials(\n    'orders', '", F(C.alnum, 16), "'\n)"),
        P('params = pika.ConnectionParameters("mq.acme.internal", 5672, "/", pika.PlainCredentials("billing", "', F(C.alnum, 20), '"))'),
      ],
      neg: ["credentials = pika.PlainCredentials('guest', 'guest')", 'credentials = pika.PlainCredentials(user, password)', "pika.PlainCredentials('orders', os.environ['MQ_PASSWORD'])", "ServiceAccountCredentials('svc', '" + F(C.alnum, 16) + "')"],
    }),
    back: ['plain', 5, 5],
  },
  // Go's net/smtp: `smtp.PlainAuth("", "user", "…", "host")`, whose first argument, the identity,
  // is nearly always empty. Keyed on `auth("",` with five bytes of `Plain` before it: eight bytes,
  // so the build need not expand a short keyword into many keys, and `auth` is a first four bytes
  // other keywords have. (gofmt's one argument a line, `PlainAuth(\n\t"",`, is not read.)
  {
    ...afterUser('generic-password-smtp-plainauth', 'Password given to Go\'s smtp.PlainAuth("", "user", "…", "host")', ['auth("",'], {
      pos: [
        P('auth := smtp.PlainAuth("", "alerts@acme.io", "', F(C.alnum, 16), '", "smtp.gmail.com")'),
        P('err := smtp.SendMail(addr, smtp.PlainAuth("", cfg.From, "', F(C.alnum, 16), '", host), from, to, msg)'),
        P('auth := smtp.PlainAuth("", os.Getenv("SMTP_USER"), "', F(C.alnum, 16), '", host)'),
      ],
      neg: ['auth := smtp.PlainAuth("", from, password, host)', 'auth := smtp.PlainAuth("", "alerts@acme.io", os.Getenv("SMTP_PASSWORD"), host)', 'smtp.PlainAuth("", "user@example.com", "password", "smtp.example.com")'],
    }),
    back: ['plain', 5, 5],
  },
  // PHP's curl: `curl_setopt($ch, CURLOPT_USERPWD, 'user:…')`, the pair in one string. Keyed on the
  // option's name, whose first bytes `curl` has. (In an options array, `CURLOPT_USERPWD => '…'`,
  // the name ends in `pwd` and the generic password rule takes the value.)
  {
    ...generic('generic-password-curlopt-userpwd', "user:password given to curl_setopt's CURLOPT_USERPWD in PHP", { keywords: [], minLen: 8, entropy: 2.8 }, {
      pos: [
        P("curl_setopt($ch, CURLOPT_USERPWD, 'api:", F(C.alnum, 20), "');"),
        P('curl_setopt($curl, CURLOPT_USERPWD, "ops@acme.io:', F(C.alnum, 16), '");'),
      ],
      neg: [
        'curl_setopt($ch, CURLOPT_USERPWD, "$user:$pass");',
        "curl_setopt($ch, CURLOPT_USERPWD, $username . ':' . $password);",
        "curl_setopt($ch, CURLOPT_USERPWD, 'user:password');",
        "curl_setopt($ch, CURLOPT_USERPWD, 'api:' . API_KEY);",
        // Interpolated in double quotes: the properties' values.
        'curl_setopt($this->ch, CURLOPT_USERPWD, "$this->username:$this->password");',
        'curl_setopt($ch, CURLOPT_USERPWD, "{$this->username}:{$this->password}");',
        'curl_setopt($ch, CURLOPT_USERPWD, "api:{$this->apiKey}");',
      ],
    }),
    keywords: ['curlopt_userpwd'],
    steps: [['ws', 0, 4], ',', ['ws', 0, 4], ['quote', 1, 1], ['basicuser', 1, 64], ':', ['inquote', 8, 128]],
    host: ['assignment', 'positional', 'encodedPair'],
  },
  // The OpenLDAP clients take the bind password with `-w` (`-W` asks for it, `-y` reads it from a
  // file). Keyed on the commands' names after their `l`: `ld` would be a new first pair of bytes
  // for the SIMD prefilter (it is in build, field, world), `da` is one already.
  commandFlag('generic-password-ldap-cli', 'Bind password given to the OpenLDAP clients with -w (ldapsearch, ldapadd, ldapmodify, ldapdelete, ldapwhoami, ldappasswd)', ['dapsearch', 'dapadd', 'dapmodify', 'dapdelete', 'dapwhoami', 'dappasswd', 'dapcompare', 'dapmodrdn', 'dapexop'], ' -w', true, {
    pos: [
      P('ldapsearch -x -H ldaps://ldap.acme.dev -D "cn=admin,dc=acme,dc=dev" -w ', F(C.alnum, 16), ' -b "dc=acme,dc=dev" "(uid=jdoe)"'),
      P("ldapadd -x -D cn=admin,dc=acme,dc=dev -w '", F(C.alnum, 14), "' -f users.ldif"),
      P('docker exec ldap ldapmodify -x -D "cn=admin,dc=acme,dc=dev" \\\n  -w "', F(C.alnum, 18), '" -f change.ldif'),
    ],
    neg: [
      'ldapsearch -x -D "cn=admin,dc=acme,dc=dev" -w "$LDAP_ADMIN_PASSWORD" -b dc=acme,dc=dev',
      'ldapsearch -x -D cn=admin,dc=acme,dc=dev -W -b dc=acme,dc=dev',
      'ldapwhoami -x -D cn=admin,dc=acme,dc=dev -y /run/secrets/ldap_password',
      'ldapsearch -x -D cn=admin,dc=example,dc=org -w changeme -b dc=example,dc=org',
      'ldapsearch -x -b dc=acme,dc=dev\ngrep -w ' + F(C.alnum, 16) + ' users.txt',
    ],
  }),
  // The Mosquitto MQTT clients: `-P` is the password (`-p`, the port).
  commandFlag('generic-password-mosquitto', 'Password given to the Mosquitto MQTT clients with -P (mosquitto_pub, mosquitto_sub, mosquitto_rr)', ['mosquitto_pub', 'mosquitto_sub', 'mosquitto_rr'], ' -P', true, {
    pos: [
      P('mosquitto_pub -h mqtt.acme.dev -p 8883 -u sensor01 -P ', F(C.alnum, 18), ' -t home/temp -m 21.5'),
      P("mosquitto_sub -h broker.acme.dev -u ops -P '", F(C.alnum, 16), "' -t '#' -v"),
    ],
    neg: ['mosquitto_pub -h broker -u sensor -P "$MQTT_PASSWORD" -t t -m 1', 'mosquitto_sub -h broker -p 1883 -t test/#', 'mosquitto_passwd -c /etc/mosquitto/passwd sensor01'],
  }),
  // ssh-keygen's new passphrase is `-N` (an empty one, `-N ""`, is the usual: no secret there).
  commandFlag('generic-password-ssh-keygen', 'Passphrase given to ssh-keygen -N', ['ssh-keygen'], ' -N', true, {
    pos: [P('ssh-keygen -t ed25519 -C deploy@acme.dev -f ~/.ssh/deploy -N ', F(C.alnum, 20)), P("ssh-keygen -t rsa -b 4096 -N '", F(C.alnum, 16), "' -f id_rsa")],
    neg: ['ssh-keygen -t ed25519 -N "" -f ~/.ssh/id_ed25519', "ssh-keygen -q -t rsa -b 4096 -N '' -f id_rsa", 'ssh-keygen -t ed25519 -N "$KEY_PASSPHRASE" -f key', 'ssh-keygen -lf ~/.ssh/id_rsa.pub'],
  }),
  // The Samba clients take `-U user%password`. Keyed on `client ` (`cl` and `clie` begin the
  // client_secret keywords) with the three bytes of `smb` or `rpc` before it; the flag is searched
  // for on from there, as the other command rules do, without the blank before it (the keyword
  // took the one of `smbclient -U …`).
  {
    ...generic('generic-password-smbclient', 'Password given to smbclient or rpcclient as -U user%password', KIND.password, {
      pos: [
        P("smbclient //files.acme.internal/share -U 'ACME\\svc-backup%", F(C.alnum, 16), "' -c 'ls'"),
        P('smbclient -L //10.0.0.12 -U admin%', F(C.alnum, 14)),
        P('rpcclient -U "ops%', F(C.alnum, 18), '" 10.0.0.12 -c enumdomusers'),
      ],
      neg: [
        'smbclient //files/share -U "$SMB_USER%$SMB_PASSWORD"',
        'smbclient //files/share -U svc-backup -A /etc/samba/creds',
        'smbclient -L //10.0.0.12 -U admin%password',
        'the http client -U flag sets a user%' + F(C.alnum, 12),
      ],
    }),
    keywords: ['client '],
    back: ['smbback', 3, 3],
    steps: [{ until: '-U', min: 0, max: 256 }, '-U', ['sp', 0, 4], ['quote', 0, 1], ['smbuser', 1, 64], '%', ['val', KIND.password.minLen, 128]],
    host: ['assignment', 'command'],
    commands: ['smbclient', 'rpcclient'],
  },
  // RabbitMQ's `rabbitmqctl add_user USER PASSWORD`, in Dockerfiles and entrypoint scripts. Keyed
  // on the subcommand; the line must name rabbitmqctl.
  {
    ...generic('generic-password-rabbitmqctl', 'Password given to rabbitmqctl add_user USER PASSWORD', KIND.password, {
      pos: [
        P('RUN rabbitmqctl add_user orders ', F(C.alnum, 16), ' && rabbitmqctl set_user_tags orders monitoring'),
        P('rabbitmqctl add_user "billing" "', F(C.alnum, 18), '"'),
      ],
      neg: [
        'rabbitmqctl add_user "$RABBITMQ_USER" "$RABBITMQ_PASSWORD"',
        'rabbitmqctl add_user admin changeme',
        'rabbitmqctl delete_user guest',
        'users.add_user alice ' + F(C.alnum, 16),
      ],
    }),
    keywords: ['add_user '],
    steps: [['sp', 0, 3], ['notws', 1, 64], ['sp', 1, 4], ['sqlquote', 0, 1], ['val', KIND.password.minLen, 128]],
    host: ['assignment', 'positional', 'command'],
    commands: ['rabbitmqctl'],
  },
  // The container tools' `--creds user:password` (skopeo, podman, buildah), and skopeo's
  // `--src-creds` and `--dest-creds` for the two registries of a copy; the user may be an email,
  // and the password runs to a blank or its closing quote. (With `=`, `--creds=user:…`
  // is the generic secret rule's, `creds` being one of its words, which flags the pair whole.)
  {
    ...generic('generic-password-creds-flag', "user:password given to a container tool's --creds, --src-creds or --dest-creds (skopeo, podman, buildah)", KIND.password, {
      pos: [
        P('skopeo copy --dest-creds ci-bot:', F(C.alnum, 20), ' docker-archive:app.tar docker://registry.acme.dev/app:1.4'),
        P("podman pull --creds 'robot$ci:", F(C.alnum, 24), "' harbor.acme.dev/apps/api:latest"),
        P('skopeo sync --src docker --src-creds mirror@acme.dev:', F(C.alnum, 18), ' quay.io/acme registry.local'),
      ],
      neg: [
        'skopeo copy --dest-creds "$REG_USER:$REG_PASSWORD" oci:app docker://registry.acme.dev/app',
        'podman pull --creds admin:password localhost:5000/app',
        'buildah from --creds "$(cat /run/secrets/registry)" registry.acme.dev/base',
      ],
    }),
    keywords: ['--creds', '--src-creds', '--dest-creds'],
    steps: [['qspeq', 1, 3], ['basicuser', 1, 64], ':', ['val', KIND.password.minLen, 256]],
    after: null,
    entropy: 2.5,
    host: ['assignment', 'password'],
  },
  // lftp's `-u user,password` (deploy scripts' mirror uploads). Keyed on the flag, whose first
  // bytes curl's `-u` rules have (`lftp`, `lf`, would be a new first pair for the SIMD prefilter);
  // the line must name lftp.
  {
    ...generic('generic-password-lftp', 'Password given to lftp -u user,password', KIND.password, {
      pos: [
        P('lftp -u deploy,', F(C.alnum, 18), ' sftp://files.acme.dev -e "mirror -R dist /var/www; quit"'),
        P("lftp -e 'set ssl:verify-certificate no; mirror -R build public_html; bye' -u 'web@acme.dev,", F(C.alnum, 16), "' ftp.acme.dev"),
      ],
      neg: [
        'lftp -u "$FTP_USER,$FTP_PASSWORD" sftp://files.acme.dev',
        'lftp -u deploy sftp://files.acme.dev',
        'lftp -u anonymous,password ftp.acme.dev',
        'sudo -u www-data,' + F(C.alnum, 16) + ' true',
      ],
    }),
    keywords: ['-u '],
    ci: false,
    steps: [['sp', 0, 3], ['sqlquote', 0, 1], ['commauser', 1, 64], ',', ['val', KIND.password.minLen, 128]],
    host: ['assignment', 'positional', 'command'],
    commands: ['lftp'],
  },
  // HTTPie's `http -a user:password` and `--auth user:password` (curl's -u, in HTTPie's API docs
  // and scripts). Keyed on the flags; the line must run http or https (with a blank after the
  // name, so a URL's scheme is not the command).
  ...[
    ['generic-password-httpie', 'user:password given to HTTPie (http or https) with -a', '-a ', 0, {
      pos: [P('http -a admin:', F(C.alnum, 18), ' POST https://api.acme.dev/v1/items name=widget'), P("https -a 'ci-bot@acme.dev:", F(C.alnum, 16), "' api.acme.dev/deploys")],
      neg: [
        'http -a "$API_USER:$API_PASSWORD" POST https://api.acme.dev/v1/items',
        'http -a admin:password :8080/admin',
        'docker ps -a admin:' + F(C.alnum, 16),
        'see https://httpie.io/docs: http -a user:pass works',
      ],
    }],
    ['generic-password-httpie-auth', 'user:password given to HTTPie (http or https) with --auth', '--auth', 1, {
      pos: [P('http --auth=deploy:', F(C.alnum, 20), ' GET :8080/health'), P('https --auth "ops:', F(C.alnum, 18), '" api.acme.dev/metrics')],
      neg: ['http --auth-type=bearer --auth "$TOKEN" api.acme.dev', 'http --auth "$(cat creds)" api.acme.dev', 'curl --auth ops:' + F(C.alnum, 16)],
    }],
  ].map(([id, description, flag, gap, examples]) => ({
    ...generic(id, description, KIND.password, examples),
    keywords: [flag],
    ci: false,
    steps: [['qspeq', gap, 3], ['basicuser', 1, 64], ':', ['val', KIND.password.minLen, 256]],
    after: null,
    entropy: 2.5,
    host: ['assignment', 'positional', 'command'],
    commands: ['http ', 'https '],
  })),
  // MinIO's client: `mc alias set ALIAS URL ACCESS_KEY SECRET_KEY`, in docker-compose entrypoints
  // and CI scripts; the secret key is the last argument. Keyed on `as set ` with the `ali` before
  // it; the line must run mc. (The older `mc config host add` is left out: its keyword's first four
  // bytes, `host`, are in code everywhere, and each would be a prefilter hit.)
  ...[
    ['generic-secret-minio-alias', "MinIO secret key given to mc alias set ALIAS URL ACCESS_KEY SECRET_KEY", ['as set '], ['aliback', 3, 3], {
      pos: [
        P('mc alias set prod https://s3.acme.dev ' + F(C.upnum, 20) + ' ', F(C.alnum, 40), ' --api S3v4'),
        P('  - mc alias set local http://minio:9000 backup-svc "', F(C.alnum, 32), '"'),
      ],
      neg: [
        'mc alias set myminio http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD"',
        'mc alias set play https://play.min.io Q3AM3UQ867SPQQA43P2F ' + 'zuf+tfteSlswRu7BJ86wekitnifILbZam1KYY3TG',
        'mc alias set local http://localhost:9000 minioadmin minioadmin',
        'mc alias set prod https://s3.acme.dev',
        'git config alias set-upstream ' + F(C.alnum, 32),
      ],
    }],
  ].map(([id, description, keywords, back, examples]) => ({
    ...generic(id, description, KIND.secret, examples),
    keywords,
    ci: false,
    ...(back ? { back } : {}),
    steps: [['notws', 1, 64], ['sp', 1, 4], ['notws', 1, 512], ['sp', 1, 4], ['sqlquote', 0, 1], ['val', 3, 128], ['sqlquote', 0, 1], ['sp', 1, 4], ['sqlquote', 0, 1], ['val', KIND.secret.minLen, 128]],
    host: ['assignment', 'positional', 'command'],
    commands: ['mc ', 'mc.exe ', 'mcli '],
  })),
  // The GitHub CLI's `gh secret set NAME --body VALUE` (or `-b VALUE`; the value is given to
  // GitHub, and stays in the script). Keyed on `secret set `, whose first bytes the secret rules'
  // keywords have; the flag is searched for on from there, as the other command rules do.
  ...[
    ['generic-secret-gh-secret-body', 'Secret value given to gh secret set NAME --body VALUE', ' --body', ['qspeq', 1, 3], {
      pos: [
        P('gh secret set NPM_TOKEN --repo acme/web --body ', F(C.alnum, 36)),
        P('gh secret set DEPLOY_KEY --body="', F(C.alnum, 32), '" --env production'),
      ],
      neg: ['gh secret set NPM_TOKEN --body "$NPM_TOKEN"', 'gh secret set SLACK_WEBHOOK --body "${{ secrets.SLACK_WEBHOOK }}"', 'gh secret set -f .env', 'gh secret set API_KEY < api-key.txt'],
    }],
    ['generic-secret-gh-secret-b', 'Secret value given to gh secret set NAME -b VALUE', ' -b', ['sp', 0, 3], {
      pos: [P("gh secret set SENTRY_AUTH_TOKEN -b'", F(C.alnum, 40), "'"), P('gh secret set SONAR_TOKEN -R acme/api -b ', F(C.alnum, 32))],
      neg: ['gh secret set SONAR_TOKEN -b"$SONAR_TOKEN"', 'gh secret set SONAR_TOKEN --body ' + 'x'.repeat(8), 'gh secret list -b main'],
    }],
  ].map(([id, description, flag, gap, examples]) => ({
    ...generic(id, description, KIND.secret, examples),
    keywords: ['secret set '],
    ci: false,
    steps: [{ until: flag, min: 0, max: 256 }, flag, gap, ['quote', 0, 1], ['val', KIND.secret.minLen, 256]],
    host: ['assignment', 'positional', 'command'],
    commands: ['gh '],
  })),
  // Archive and encryption tools' password flags, last: their fixtures' values are drawn after
  // every other rule's, so adding them left those unchanged.
  // zip's and unzip's `-P password` (backup and release scripts). Keyed on `zip ` with the `un` of
  // unzip allowed before it (a class, as htpasswd's `ht`), and no other letter: not gzip's or
  // bzip2's. The flag is searched for without the blank before it (the keyword took the one of
  // `zip -P …`) and with the one after it, which zip's -P takes: never a `-P` inside a file name.
  {
    ...commandFlag('generic-password-zip', "Password given to zip's or unzip's -P flag (zip -r -P SECRET backup.zip data/)", ['zip '], '-P ', true, {
      pos: [P('zip -r -P ', F(C.alnum, 16), ' backup.zip data/'), P('unzip -o -P "', F(C.alnum, 18), '" release.zip -d /srv/app'), P('zip -P ', F(C.alnum, 16), ' -r backup.zip data/')],
      neg: ['zip -r -P "$ZIP_PASSWORD" backup.zip data/', 'zip -e -r backup.zip data/', 'gzip -9 dump.sql && psql -P pager=off -c "select 1"', 'unzip -P changeme sample.zip', 'zip -r -9 site.zip public/', 'zip -r release-Production-2024.zip dist/'],
    }),
    back: ['unback', 0, 2],
    before: 'alnum',
  },
  // OpenSSL's legacy `-k password` (openssl enc); `-pass pass:…`, `-passin` and `-passout` are the
  // generic rules'. The flag with its blank, so `-keyout`, `-kdf` or `-kfile` are never it.
  commandFlag('generic-password-openssl-k', "Password given to openssl's -k flag (openssl enc -aes-256-cbc -k SECRET)", ['openssl '], ' -k ', true, {
    pos: [P('openssl enc -aes-256-cbc -salt -in db.sql -out db.sql.enc -k ', F(C.alnum, 18)), P("openssl enc -d -aes-256-cbc -md sha256 -in secrets.enc -k '", F(C.alnum, 16), "' -out secrets.env")],
    neg: ['openssl enc -aes-256-cbc -in db.sql -out db.sql.enc -k "$BACKUP_KEY"', 'openssl req -new -newkey rsa:2048 -nodes -keyout server.key -out server.csr', 'openssl enc -aes-256-cbc -kfile ./key.txt -in a -out b', 'openssl x509 -in cert.pem -noout && curl -k https://api.acme.dev/health'],
  }),
];
