/**
 * Extensions of source code (ScanOptions.path lists them for its readers: keep the two the same): languages in which a value written without quotes is code (a name,
 * a member read, a type), never a literal. `.env`, YAML, INI, properties, shell and Dockerfiles
 * are not among them: there an unquoted value is the literal (`PASSWORD=CorrectHorseBatteryStaple`).
 * Nor are templates that hold text (`.vue`, `.svelte`, `.html`) or Markdown.
 */
const SOURCE_EXTENSIONS = new Set([
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx',
  'py', 'pyi', 'go', 'java', 'kt', 'kts', 'scala', 'groovy', 'gradle', 'cs', 'fs', 'rs', 'rb', 'php',
  'swift', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'm', 'mm', 'dart', 'lua',
]);

/**
 * Whether a file's path names source code by its extension (see SOURCE_EXTENSIONS), read from its
 * last segment after `/` or `\`, in any case: `src/app.ts`, `C:\proj\Main.JAVA`, `types.d.ts`. A
 * name with no extension (`Makefile`, `.env`) is not.
 */
export function isSourceCodePath(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && SOURCE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/**
 * Folders that hold translation catalogues (`config/locales/fr.yml`, `src/i18n/es.json`,
 * `public/locales/de/translation.json`, Laravel's `resources/lang/es/auth.php`), and the
 * catalogues' own formats (gettext, XLIFF, Apple's `.strings`, Flutter's `.arb`).
 */
const TRANSLATION_DIRS = new Set(['locales', 'locale', 'i18n', 'l10n', 'lang', 'langs', 'languages', 'translations']);
const TRANSLATION_EXTENSIONS = new Set(['po', 'pot', 'xliff', 'xlf', 'strings', 'arb']);

/**
 * What a text's path says it is (ScanOptions.path): `unknown` with no path; `source` code by its
 * extension ({@link isSourceCodePath}); `translations`, a catalogue of UI text, under a folder such
 * as `locales/` or `i18n/` or in a catalogue's format; else `other` (configuration, `.env`,
 * Markdown, shell), where a line of configuration is nothing but configuration.
 */
export type FileKind = 'unknown' | 'source' | 'translations' | 'other';

/** The {@link FileKind} of a path (or of none). */
export function fileKind(path: string | undefined): FileKind {
  if (path === undefined) return 'unknown';
  const segments = path.toLowerCase().split(/[\\/]/);
  const name = segments[segments.length - 1]!;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  if (TRANSLATION_EXTENSIONS.has(ext) || segments.slice(0, -1).some((d) => TRANSLATION_DIRS.has(d))) return 'translations';
  return SOURCE_EXTENSIONS.has(ext) ? 'source' : 'other';
}
