// The page's own worker: the toy TypeScript indexer (analyze.ts). ctxgate's engine runs in its
// own worker; this one only does the language work ctxgate leaves to the caller's indexer.
import { expose } from 'comlink';
import { analyzeFile, linkImports, type FileFacts } from './analyze.ts';

/** What the page calls in this worker. */
export interface AnalyzeApi {
  analyze(files: { path: string; bytes: Uint8Array }[]): FileFacts[];
  link(paths: string[], facts: Pick<FileFacts, 'path' | 'imports'>[]): ReturnType<typeof linkImports>;
}

const api: AnalyzeApi = {
  analyze: (files) => files.map((f) => analyzeFile(f.path, f.bytes)),
  link: (paths, facts) => linkImports(paths, facts),
};

// Exposed synchronously at the top: a call made before expose() would be lost.
expose(api);
