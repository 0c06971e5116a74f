/**
 * The minimum a test runner must offer to run the shared contract suites: Vitest (Node, Chromium,
 * workerd) and Deno's runner with Jest's `expect` both fit.
 */
export interface Harness {
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => unknown | Promise<unknown>): void;
  // The subset of Jest/Vitest `expect` that contract suites use.
  expect: (value: unknown) => any;
  /** Name of the runtime, for messages. */
  runtime: 'node' | 'chromium' | 'deno' | 'workerd';
}
