import { describe, expect, it } from 'vitest';
import { coreContract } from './core.contract.ts';
import { fingerprintContract } from './fingerprint.contract.ts';
import { workerCrashContract } from './worker-crash.contract.ts';

const harness = { describe, it, expect, runtime: 'chromium' } as const;
coreContract(harness);
workerCrashContract(harness);
fingerprintContract(harness);
