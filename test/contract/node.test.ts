import { describe, expect, it } from 'vitest';
import { coreContract } from './core.contract.ts';

coreContract({ describe, it, expect, runtime: 'node' });
