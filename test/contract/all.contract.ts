// Every shared contract suite, in one place, so each runtime's entry runs the same list.
import { builderContract } from './builder.contract.ts';
import { coreContract } from './core.contract.ts';
import { fingerprintContract } from './fingerprint.contract.ts';
import type { Harness } from './harness.ts';
import { layersContract } from './layers.contract.ts';
import { policyContract } from './policy.contract.ts';
import { secretsContract } from './secrets.contract.ts';
import { tokensContract } from './tokens.contract.ts';

/** Runs every contract suite that does not need Web Workers. */
export function allContracts(harness: Harness): void {
  coreContract(harness);
  fingerprintContract(harness);
  secretsContract(harness);
  tokensContract(harness);
  builderContract(harness);
  layersContract(harness);
  policyContract(harness);
}
