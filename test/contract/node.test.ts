import { describe, expect, it } from 'vitest';
import { allContracts } from './all.contract.ts';

allContracts({ describe, it, expect, runtime: 'node' });
