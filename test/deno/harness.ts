// Runs the shared contract suites under Deno's own test runner, with Jest's standalone `expect`
// (the same matchers Vitest offers), so the suites stay unchanged across runtimes.
import { expect } from 'expect';
import type { Harness } from '../contract/harness.ts';

const prefix: string[] = [];

export const harness: Harness = {
  runtime: 'deno',
  expect,
  describe(name, fn) {
    prefix.push(name);
    try {
      fn();
    } finally {
      prefix.pop();
    }
  },
  it(name, fn) {
    Deno.test([...prefix, name].join(' > '), async () => {
      await fn();
    });
  },
};
