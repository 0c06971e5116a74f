import { describe, expect, it } from 'vitest';
import { coreContract } from './core.contract.ts';
import { workerCrashContract } from './worker-crash.contract.ts';

coreContract({ describe, it, expect, runtime: 'chromium' });
workerCrashContract({ describe, it, expect, runtime: 'chromium' });
