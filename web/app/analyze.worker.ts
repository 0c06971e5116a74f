// The page's own worker: the toy TypeScript indexer (analyze.ts). ctxgate's engine runs in its
// own worker; this one only does the language work ctxgate leaves to the caller's indexer, and
// decodes each file once with ctxgate's content gate so the page thread never decodes a project.
import { expose } from 'comlink';
import { checkContent } from '../../src/index.ts';
import { MAX_PARSE_BYTES, SCAN_MAX_BYTES, analyzeFile, linkImports, type FileFacts } from './analyze.ts';

/**
 * One analysed file: the toy indexer's facts and, when the content gate reads it as text and it is
 * small enough to be scanned (SCAN_MAX_BYTES), its text: a larger one is not sent back for nothing.
 */
export interface AnalyzedFile {
  facts: FileFacts;
  text?: string;
}

/** What the page calls in this worker. */
export interface AnalyzeApi {
  analyze(files: { path: string; bytes: Uint8Array }[]): AnalyzedFile[];
  link(paths: string[], facts: Pick<FileFacts, 'path' | 'imports'>[]): ReturnType<typeof linkImports>;
}

const api: AnalyzeApi = {
  analyze: (files) =>
    files.map((f) => {
      // The gate's decoding (UTF-8, UTF-16 with a BOM, windows-1252), as the builder decodes the file.
      const d = checkContent(f.bytes, { maxBytes: MAX_PARSE_BYTES });
      if (!d.allowed) return { facts: analyzeFile(f.path, undefined) };
      const facts = analyzeFile(f.path, d.text);
      return f.bytes.byteLength <= SCAN_MAX_BYTES ? { facts, text: d.text } : { facts };
    }),
  link: (paths, facts) => linkImports(paths, facts),
};

// Exposed synchronously at the top: a call made before expose() would be lost.
expose(api);
