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
