// .gitignore files of a project tree, with git's precedence, for every walker: the Node/Deno
// directory walker (ctxgate/fs) and the browser's directory handles and picked folders. Runtime
// neutral: the walkers read the files, this only decides.
import ignore, { type Ignore } from 'ignore';

/** The rules of one .gitignore file and the directory it sits in ('' for the project root). */
export interface GitignoreLevel {
  readonly base: string;
  readonly rules: Ignore;
  /** Whether its patterns match in any case (git's core.ignoreCase). */
  readonly ignoreCase: boolean;
}

/**
 * One .gitignore file's level. Case-sensitive unless `ignoreCase`, as git is by default:
 * `core.ignoreCase` is false unless `git init` or `git clone` found a case-insensitive file system
 * (macOS, Windows), where it sets true. `ignore` itself defaults to ignoring case.
 */
export function gitignoreLevel(dir: string, text: string, ignoreCase = false): GitignoreLevel {
  return { base: dir, rules: ignore({ ignorecase: ignoreCase }).add(text), ignoreCase };
}

/** The levels in force below `dir`: those above it, plus its own .gitignore when it has one. */
export function withGitignore(levels: readonly GitignoreLevel[], dir: string, text: string, ignoreCase = false): GitignoreLevel[] {
  return [...levels, gitignoreLevel(dir, text, ignoreCase)];
}

/**
 * Whether git ignores `path` (project-relative, `/`-separated) by the given levels: those of its
 * ancestor directories, shallowest first. A deeper .gitignore overrides a shallower one; within
 * one file the last matching rule decides, negations included. Parent directories are settled by
 * the walk: a walker does not descend into an ignored directory, and enters the others with
 * {@link enterDirectory} (see {@link treeIgnored} for a flat list).
 */
export function gitIgnored(levels: readonly GitignoreLevel[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of levels) {
    const relative = base ? path.slice(base.length + 1) : path;
    const r = rules.test(isDir ? `${relative}/` : relative);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/**
 * The levels in force inside the directory `dir`, which the walker enters because
 * {@link gitIgnored} found it not ignored. A shallower level may still exclude `dir` (by a pattern
 * of its own, or through an ancestor) when a deeper .gitignore re-included it: `!keep.log` in
 * `src/.gitignore` against `*.log` at the root. `ignore`'s test() looks at a path's parent
 * directories itself, so that level would go on excluding everything under `dir`; git matches each
 * path against the patterns only (the walk settles the parents). Such a level gets `dir` negated
 * after its own rules, so below `dir` it judges each path by its own patterns again.
 */
export function enterDirectory(levels: readonly GitignoreLevel[], dir: string): readonly GitignoreLevel[] {
  let out: GitignoreLevel[] | undefined;
  levels.forEach((level, i) => {
    const relative = level.base ? dir.slice(level.base.length + 1) : dir;
    if (!level.rules.test(`${relative}/`).ignored) return;
    out ??= [...levels];
    out[i] = { ...level, rules: ignore({ ignorecase: level.ignoreCase }).add(level.rules).add(`!/${escapePattern(relative)}/`) };
  });
  return out ?? levels;
}

/** A path as a literal gitignore pattern: glob characters and the backslash escaped. */
function escapePattern(path: string): string {
  return path.replace(/[\\*?[\]]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

/**
 * Whether git ignores a file of a flat list, given every .gitignore of the list by its directory:
 * as a walker would decide, each parent directory first (a file in an ignored directory cannot be
 * re-included), with only the .gitignore files of its own ancestors in force. Each directory is
 * judged once, and its levels kept, however many files of the list sit under it.
 */
export function treeIgnored(byDir: ReadonlyMap<string, GitignoreLevel>): (path: string) => boolean {
  const own = (levels: readonly GitignoreLevel[], dir: string): readonly GitignoreLevel[] => {
    const level = byDir.get(dir);
    return level ? [...levels, level] : levels;
  };
  // The levels in force inside each directory judged so far; null for an ignored one.
  const inside = new Map<string, readonly GitignoreLevel[] | null>([['', own([], '')]]);
  const levelsIn = (dir: string): readonly GitignoreLevel[] | null => {
    const known = inside.get(dir);
    if (known !== undefined) return known;
    const slash = dir.lastIndexOf('/');
    const parent = levelsIn(slash < 0 ? '' : dir.slice(0, slash));
    const levels = parent === null || gitIgnored(parent, dir, true) ? null : own(enterDirectory(parent, dir), dir);
    inside.set(dir, levels);
    return levels;
  };
  return (path) => {
    const slash = path.lastIndexOf('/');
    const levels = levelsIn(slash < 0 ? '' : path.slice(0, slash));
    return levels === null || gitIgnored(levels, path, false);
  };
}

/** The .gitignore levels of a flat list of files, by directory, from their texts. */
export function gitignoresByDir(files: Iterable<{ path: string; text: string }>, ignoreCase = false): Map<string, GitignoreLevel> {
  const byDir = new Map<string, GitignoreLevel>();
  for (const { path, text } of files) {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    byDir.set(dir, gitignoreLevel(dir, text, ignoreCase));
  }
  return byDir;
}

/** Whether a path lies in a `.git` directory (at any depth), which no walker lists. */
export function inGitDir(path: string): boolean {
  return path === '.git' || path.startsWith('.git/') || path.includes('/.git/') || path.endsWith('/.git');
}
