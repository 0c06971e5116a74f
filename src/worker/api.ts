import { crc32, utf8Check } from '../core/checksum.ts';
import { initCore } from '../core/core.ts';
import { withCoreAsync } from '../core/core.ts';
import { sha256HexStream, sha256HexSync, sha256ManySync } from '../core/sha256.ts';
import { sortBlockKeysSync } from '../core/sort.ts';
import { fingerprintSync } from '../fingerprint/fingerprint.ts';
import { assembleContext } from '../builder/assemble.ts';
import { createBuilderGates, createIndexGates } from '../builder/default-gates.ts';
import { indexProjectSync } from '../builder/project-index.ts';
import { validateBuildInput } from '../builder/schema.ts';
import { scanSecrets } from '../secrets/scan.ts';
import { redactSecrets } from '../secrets/redact.ts';
import { estimateTokens } from '../core/tokens.ts';
import { countTokens } from '../tokens/exact.ts';
import type { CoreApi, CoreInfo } from './protocol.ts';

/**
 * The core API implemented in the current thread. The worker exposes exactly this object, and the
 * in-thread engine (workerd, Node) calls it directly, so both paths run the same code.
 */
export function createCoreApi(mode: CoreInfo['mode']): CoreApi {
  return {
    async init(source) {
      const core = await initCore(source);
      return { memoryBytes: core.memoryBytes, mode };
    },
    crc32: (input, seed) => withCoreAsync(() => crc32(input, seed)),
    utf8Check: (bytes) => withCoreAsync(() => utf8Check(bytes)),
    async sha256Hex(input) {
      if (typeof input === 'string' || input instanceof Uint8Array) return withCoreAsync(() => sha256HexSync(input));
      await initCore();
      return sha256HexStream(input);
    },
    sha256Many: (inputs) => withCoreAsync(() => sha256ManySync(inputs)),
    fingerprint: (value) => withCoreAsync(() => fingerprintSync(value)),
    sortBlockKeys: (items) => withCoreAsync(() => sortBlockKeysSync(items)),
    async buildContext(input, contents) {
      await initCore();
      const valid = validateBuildInput(input);
      const gates = await createBuilderGates(valid);
      return withCoreAsync(() => assembleContext(valid, new Map(contents), gates));
    },
    indexProject: (files, extras, sandbox) => withCoreAsync(() => indexProjectSync(files, createIndexGates(sandbox), extras)),
    estimateTokens: (text, options) => withCoreAsync(() => estimateTokens(text, options)),
    countTokens: (text, options) => countTokens(text, options),
    scanSecrets: (text, options) => withCoreAsync(() => scanSecrets(text, options)),
    redactSecrets: (text, options) => withCoreAsync(() => redactSecrets(text, options)),
  };
}
