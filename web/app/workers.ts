// The page's two workers, and what happens when one stops. A crashed or closed ctxgate engine
// rejects every call (WORKER_CRASHED, WORKER_CLOSED) and cannot be revived: the README's remedy
// is a new engine, which the keeper starts after the first call that fails so. Comlink never
// rejects a call to a dead worker, so the page's analysis worker is guarded here too: without it
// a load would wait forever.
import { wrap, type Remote } from 'comlink';
import { createCtxgate, isCtxgateError, type DependencyEdge, type Engine } from '../../src/index.ts';
import type { FileFacts } from './analyze.ts';
import type { AnalyzeApi, AnalyzedFile } from './analyze.worker.ts';

/** What the header says about the engine. */
export type EngineState = { state: 'ready'; engine: Engine; restarted: boolean } | { state: 'stopped' | 'failed'; error: unknown };

/** Whether `error` says the engine is gone (crashed or closed), so a new one is needed. */
export function engineStopped(error: unknown): boolean {
  return isCtxgateError(error, 'WORKER_CRASHED') || isCtxgateError(error, 'WORKER_CLOSED');
}

/** One sentence for a person about a failed call, with what to do. */
export function describeError(error: unknown): string {
  if (engineStopped(error)) return 'The ctxgate engine stopped; a new one is starting. Try again in a moment (reload the page if it keeps stopping).';
  if (isCtxgateError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Keeps one engine running: started on first use, and anew after a call finds it stopped. */
export class EngineKeeper {
  private current: Promise<Engine> | undefined;
  private live: Engine | undefined;
  private starts = 0;

  constructor(private readonly show: (s: EngineState) => void) {}

  /** The running engine (starting one if none runs). */
  get(): Promise<Engine> {
    return (this.current ??= this.start());
  }

  /** Runs `call` on the engine; when the engine stopped, a new one is started and the error passed on. */
  async run<T>(call: (engine: Engine) => Promise<T>): Promise<T> {
    const engine = await this.get();
    try {
      return await call(engine);
    } catch (error) {
      if (engineStopped(error)) this.replace(engine, error);
      throw error;
    }
  }

  private replace(engine: Engine, error: unknown): void {
    // One crash fails every pending call: only the first replaces that engine.
    if (this.live !== engine) return;
    this.live = undefined;
    this.current = undefined;
    this.show({ state: 'stopped', error });
    void engine.close();
    // A failed start is shown by start(); the next call tries again.
    this.get().catch(() => undefined);
  }

  private async start(): Promise<Engine> {
    try {
      const engine = await createCtxgate();
      this.live = engine;
      this.show({ state: 'ready', engine, restarted: this.starts++ > 0 });
      return engine;
    } catch (error) {
      this.current = undefined;
      this.show({ state: 'failed', error });
      throw error;
    }
  }
}

/** The page's analysis worker: a call to a worker that died rejects, and the next call starts a new one. */
export class AnalyzerClient {
  private worker: { api: Remote<AnalyzeApi>; died: Promise<never> } | undefined;

  analyze(files: { path: string; bytes: Uint8Array }[]): Promise<AnalyzedFile[]> {
    return this.call((api) => api.analyze(files));
  }

  link(paths: string[], facts: Pick<FileFacts, 'path' | 'imports'>[]): Promise<DependencyEdge[]> {
    return this.call((api) => api.link(paths, facts));
  }

  private call<T>(fn: (api: Remote<AnalyzeApi>) => Promise<T>): Promise<T> {
    const w = (this.worker ??= this.start());
    return Promise.race([fn(w.api), w.died]);
  }

  private start(): { api: Remote<AnalyzeApi>; died: Promise<never> } {
    const worker = new Worker(new URL('./analyze.worker.ts', import.meta.url), { type: 'module', name: 'playground-analyze' });
    let stop!: (error: Error) => void;
    const died = new Promise<never>((_, reject) => (stop = reject));
    // Nobody may be waiting when it dies; the next call sees it through the race.
    died.catch(() => undefined);
    const entry = { api: wrap<AnalyzeApi>(worker), died };
    const fail = (event: Event): void => {
      event.preventDefault();
      worker.terminate();
      if (this.worker === entry) this.worker = undefined;
      const why = event instanceof ErrorEvent && event.message ? event.message : event.type;
      stop(new Error(`the page's analysis worker stopped (${why}); load the project again`));
    };
    worker.addEventListener('error', fail);
    worker.addEventListener('messageerror', fail);
    return entry;
  }
}
