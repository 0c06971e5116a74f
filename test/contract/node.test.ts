import { describe, expect, it } from 'vitest';
import { coreContract } from './core.contract.ts';
import { fingerprintContract } from './fingerprint.contract.ts';

const harness = { describe, it, expect, runtime: 'node' } as const;
coreContract(harness);
fingerprintContract(harness);
