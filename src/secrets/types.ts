// Public shapes of the secret scanner. Plain data only: they cross the worker boundary.

/** How sure a finding is. High is always redacted; medium follows {@link ScanOptions.mediumConfidence}. */
export type Confidence = 'high' | 'medium';

/**
 * A rule you add at run time: a literal prefix, then `minLength..maxLength` characters from
 * `charset`. The match must not touch a letter or digit before the prefix or a `charset`
 * character after the body.
 */
export interface UserSecretRule {
  /** Rule id in kebab-case, unique among built-in and user rules (used in placeholders). */
  readonly id: string;
  /** The literal the secret starts with, at least 3 characters (e.g. `acme_live_`). */
  readonly prefix: string;
  /** Allowed body characters as ranges and single characters, e.g. `A-Za-z0-9_-`. */
  readonly charset: string;
  /** Minimum body length after the prefix. */
  readonly minLength: number;
  /** Maximum body length after the prefix (at most 1024). */
  readonly maxLength: number;
  /** Defaults to `high`. */
  readonly confidence?: Confidence;
}

/** Options of {@link scanSecrets} and {@link redactSecrets}. */
export interface ScanOptions {
  /** Run only these built-in rule ids (user rules always run). */
  readonly allowRules?: readonly string[];
  /** Skip these built-in rule ids. */
  readonly denyRules?: readonly string[];
  /** Extra rules compiled on the host at call time. */
  readonly extraRules?: readonly UserSecretRule[];
  /**
   * What {@link redactSecrets} does with medium-confidence findings: `redact` them (default) or
   * `refuse` the whole text with a `SecretRiskError`.
   */
  readonly mediumConfidence?: 'redact' | 'refuse';
  /**
   * The text's file path or name, when it is a file's. Its extension (any case) says whether the
   * text is source code: `.js` `.mjs` `.cjs` `.jsx` `.ts` `.mts` `.cts` `.tsx` `.py` `.pyi` `.go`
   * `.java` `.kt` `.kts` `.scala` `.groovy` `.gradle` `.cs` `.fs` `.rs` `.rb` `.php` `.swift` `.c`
   * `.h` `.cc` `.cpp` `.cxx` `.hpp` `.hh` `.m` `.mm` `.dart` `.lua`. In source code, a value
   * written without quotes that reads as a name is code at the end of its line too, where code
   * surrounds it: a typed member's type (`readonly credentials: RequestCredentials`), an object's
   * last member before its closing bracket, a negated name before `&&`. In `.env`, YAML or INI
   * text, and on a comment's line, it is the secret itself. Quoted values, and values that look
   * generated, are judged the same either way. A path under a translations folder (`locales/`,
   * `locale/`, `i18n/`, `l10n/`, `lang/`, `langs/`, `languages/`, `translations/`) or of a
   * catalogue's format (`.po` `.pot` `.xliff` `.xlf` `.strings` `.arb`) holds UI text: a value of
   * words (`"password": "Contraseña"`) is no secret there. A configuration file (`.env`,
   * `.env.*`, `*.env`, `.yml` `.yaml` `.ini` `.cfg` `.conf` `.properties` `.toml`) reads an
   * unquoted value to the end of its line (`password: two words`), and its line calls nothing
   * (`DB_PASSWORD=NsZS4PFe86t3(WKcAK)F` is a password, not a call); in a script, Markdown or other
   * text a blank ends it (`PGPASSWORD=… psql -h db`), and with no path only a YAML or INI line
   * (`name: value`, `name = value`) is read to its end.
   */
  readonly path?: string;
}

/** A secret found in a text. Never carries the secret's value. */
export interface SecretFinding {
  /** Id of the rule that matched (built-in or user rule). */
  readonly ruleId: string;
  readonly confidence: Confidence;
  /** UTF-16 offset of the first character of the secret in the input string. */
  readonly start: number;
  /** UTF-16 offset just past the secret. */
  readonly end: number;
  /** 1-based line of `start` (lines end at `\n`). */
  readonly line: number;
  /** 1-based column of `start`, in UTF-16 code units. */
  readonly column: number;
}

/** One replacement made by {@link redactSecrets}; positions refer to the input text. */
export interface Redaction extends SecretFinding {
  /** The placeholder written in place of the secret, e.g. `[REDACTED:github-pat:1]`. */
  readonly placeholder: string;
}

/** Result of {@link redactSecrets}. */
export interface RedactResult {
  /** The input with every secret replaced by its placeholder. */
  readonly text: string;
  /** The replacements, in input order. */
  readonly redactions: Redaction[];
}
