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
 * Configuration formats whose unquoted value is the rest of its line (dotenv, YAML's plain
 * scalars, INI, `.properties`, TOML's and `.conf` files' lines): `.env`, `.env.production`,
 * `prod.env` by name, and these extensions.
 */
const CONFIG_EXTENSIONS = new Set(['env', 'yml', 'yaml', 'ini', 'cfg', 'conf', 'properties', 'toml']);

/** The catalogues' own formats: gettext, XLIFF, Apple's `.strings`, Flutter's `.arb`. */
const TRANSLATION_EXTENSIONS = new Set(['po', 'pot', 'xliff', 'xlf', 'strings', 'arb']);
/**
 * Folders of translation catalogues (`config/locales/fr.yml`, `src/i18n/es.json`,
 * `public/locales/de/translation.json`), for the data formats a catalogue is written in
 * ({@link CATALOGUE_EXTENSIONS}): a `.env` or a script in such a folder is what its name says.
 */
const TRANSLATION_DIRS = new Set(['locales', 'locale', 'i18n', 'l10n', 'lang', 'langs', 'languages', 'translations']);
const CATALOGUE_EXTENSIONS = new Set(['json', 'yml', 'yaml', 'properties', 'toml']);

/**
 * What a text's path says it is (ScanOptions.path), read from its segments after `/` or `\`, in
 * any case:
 * - `unknown`: no path;
 * - `source`: code, by its extension (SOURCE_EXTENSIONS): `src/app.ts`, `C:\proj\Main.JAVA`;
 * - `translations`: a catalogue of UI text, in a catalogue's own format, or as JSON, YAML,
 *   `.properties` or TOML under a folder such as `locales/` or `i18n/`;
 * - `config`: a configuration format whose unquoted value is the rest of its line
 *   (CONFIG_EXTENSIONS, and `.env` files by name);
 * - `other`: any other file (Markdown, shell, Dockerfiles, JSON, templates), where a line is read
 *   as it stands.
 */
export type FileKind = 'unknown' | 'source' | 'translations' | 'config' | 'other';

/** The {@link FileKind} of a path (or of none). */
export function fileKind(path: string | undefined): FileKind {
  if (path === undefined) return 'unknown';
  const segments = path.toLowerCase().split(/[\\/]/);
  const name = segments[segments.length - 1]!;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  if (SOURCE_EXTENSIONS.has(ext)) return 'source';
  if (TRANSLATION_EXTENSIONS.has(ext) || (CATALOGUE_EXTENSIONS.has(ext) && segments.slice(0, -1).some((d) => TRANSLATION_DIRS.has(d)))) return 'translations';
  if (CONFIG_EXTENSIONS.has(ext) || name === '.env' || name.startsWith('.env.')) return 'config';
  return 'other';
}
