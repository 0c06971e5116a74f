import { describe, expect, it } from 'vitest';
import { allContracts } from './all.contract.ts';
import { workerCrashContract } from './worker-crash.contract.ts';

const harness = { describe, it, expect, runtime: 'chromium' } as const;
allContracts(harness);
workerCrashContract(harness);
