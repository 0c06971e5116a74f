// The playground's toy indexer for TypeScript/JavaScript projects. ctxgate does not parse
// languages: a real integration passes symbols and dependency edges from its own indexer (a
// language server, tree-sitter…). This one reads top-level declarations and import lines with
// regular expressions, which is enough to show ranking, slicing and the dependency graph. It runs
// in the page's own worker (analyze.worker.ts).
import type { DependencyEdge, IndexedFile, IndexedSymbol } from '../../src/index.ts';

/** What the toy indexer learned about one file. */
export interface FileFacts {
  path: string;
  role: NonNullable<IndexedFile['role']>;
  /** Exported declarations without bodies (enables SIGNATURES_ONLY). */
  signatures?: string;
  /** One line about the file (enables SUMMARY_ONLY). */
  summary?: string;
  symbols: IndexedSymbol[];
  imports: { spec: string; typeOnly: boolean }[];
}

const CODE = /\.(?:[cm]?[jt]sx?)$/;
/** Files above this are not parsed (they are usually generated data). */
export const MAX_PARSE_BYTES = 2 * 1024 * 1024;
/** The builder's default per-file limit: larger files are never sent, so not worth scanning. */
export const SCAN_MAX_BYTES = 1024 * 1024;

/** The file's role, from its path. */
export function roleOf(path: string): FileFacts['role'] {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (/^(package\.json|tsconfig.*\.json|deno\.jsonc?|\.gitignore|\.npmrc|\.env.*|.*\.env|.*\.config\.[cm]?[jt]s|vite\.config\..*|Dockerfile|.*\.ya?ml|.*\.toml)$/.test(name)) return 'config';
  if (/(^|\/)(test|tests|__tests__)\//.test(path) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(name)) return 'test';
  if (/\.(md|mdx|txt|rst)$/i.test(name)) return 'doc';
  return 'source';
}

const DECL = /^(export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|enum|const|let|var)\s+([A-Za-z_$][\w$]*)/;

/** Net nesting change of one line, ignoring strings, template text and comments (approximately). */
function scanLine(line: string, state: { inBlockComment: boolean }): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (state.inBlockComment) {
      if (c === '*' && line[i + 1] === '/') {
        state.inBlockComment = false;
        i++;
      }
      continue;
    }
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '/' && line[i + 1] === '/') break;
    if (c === '/' && line[i + 1] === '*') {
      state.inBlockComment = true;
      i++;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
  }
  return depth;
}

/** Extracts the facts of one file from its text (none for a file that is not text or too large to parse). */
export function analyzeFile(path: string, text: string | undefined): FileFacts {
  const role = roleOf(path);
  const facts: FileFacts = { path, role, symbols: [], imports: [] };
  if (text === undefined) return facts;
  const lines = text.split('\n');
  facts.summary = `${path}: ${lines.length} lines (${role})`;
  if (!CODE.test(path)) return facts;

  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"\n]+)['"]/g)) {
    facts.imports.push({ spec: m[2]!, typeOnly: Boolean(m[1]) });
  }

  const state = { inBlockComment: false };
  let depth = 0;
  let open: { name: string; kind: string; exported: boolean; start: number; doc?: string } | null = null;
  const signatures: string[] = [];
  const exported: string[] = [];
  const close = (end: number): void => {
    if (!open) return;
    facts.symbols.push({ name: open.name, path, kind: open.kind, startLine: open.start + 1, endLine: end + 1, signature: signatureOf(lines, open.start, end, open.kind) });
    if (open.exported) {
      exported.push(open.name);
      signatures.push([open.doc, signatureOf(lines, open.start, end, open.kind)].filter(Boolean).join('\n'));
    }
    open = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const before = depth;
    const wasInComment = state.inBlockComment;
    depth += scanLine(line, state);
    if (before === 0 && !open && !wasInComment) {
      const m = DECL.exec(line);
      if (m) {
        const prev = lines[i - 1]?.trim() ?? '';
        open = { name: m[3]!, kind: m[2]!.replace('*', ''), exported: Boolean(m[1]), start: i, ...(prev.startsWith('/**') && prev.endsWith('*/') ? { doc: prev } : {}) };
      }
    }
    if (open && depth <= 0) {
      const t = line.trim();
      const next = lines[i + 1]?.trim() ?? '';
      // A statement ends at depth 0 on a line that closes it; chained lines (`.then(…)`) continue.
      if (/[;})\]]$/.test(t) || (t !== '' && !/^[.?:|&+\-*/=]/.test(next) && !/[,=(:[{]$/.test(t))) close(i);
    }
    if (depth < 0) depth = 0;
  }
  close(lines.length - 1);
  if (signatures.length) facts.signatures = signatures.join('\n\n');
  facts.summary = `${path}: ${lines.length} lines; exports ${exported.length ? exported.join(', ') : 'nothing'}`;
  return facts;
}

/** A declaration without its body: types whole, functions and classes up to their opening brace. */
function signatureOf(lines: string[], start: number, end: number, kind: string): string {
  const body = lines.slice(start, end + 1);
  if (kind === 'interface' || kind === 'type' || kind === 'enum') {
    return body.length <= 40 ? body.join('\n') : `${body.slice(0, 1).join('\n')} … }`;
  }
  const head: string[] = [];
  for (const l of body) {
    const brace = kind === 'const' || kind === 'let' || kind === 'var' ? l.search(/=\s*/) : l.lastIndexOf('{');
    if (brace >= 0) {
      head.push(kind === 'const' || kind === 'let' || kind === 'var' ? `${l.slice(0, brace).trimEnd()} = …;` : `${l.slice(0, brace).trimEnd()} { … }`);
      break;
    }
    head.push(l);
    if (head.length > 8) break;
  }
  return head.join('\n');
}

const EXTS = ['', '.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.tsx', '/index.js'];

/** Resolves relative imports against the project's paths: the dependency graph. */
export function linkImports(paths: readonly string[], facts: readonly Pick<FileFacts, 'path' | 'imports'>[]): DependencyEdge[] {
  const known = new Set(paths);
  const edges = new Map<string, DependencyEdge>();
  for (const f of facts) {
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    for (const imp of f.imports) {
      if (!imp.spec.startsWith('.')) continue;
      const base = normalize(dir ? `${dir}/${imp.spec}` : imp.spec);
      if (base === null) continue;
      const stems = /\.[cm]?js$/.test(base) ? [base, base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.js$/, '.tsx')] : [base];
      const to = stems.flatMap((s) => EXTS.map((e) => s + e)).find((p) => known.has(p));
      if (!to || to === f.path) continue;
      const key = `${f.path}\u0000${to}`;
      const kind: DependencyEdge['kind'] = imp.typeOnly ? 'interface' : 'import';
      const prev = edges.get(key);
      if (!prev || (prev.kind === 'interface' && kind === 'import')) edges.set(key, { from: f.path, to, kind });
    }
  }
  return [...edges.values()].sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1));
}

function normalize(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}
