import { harness } from './harness.ts';
import { coreContract } from '../contract/core.contract.ts';
import { fingerprintContract } from '../contract/fingerprint.contract.ts';
import { workerCrashContract } from '../contract/worker-crash.contract.ts';

coreContract(harness);
workerCrashContract(harness);
fingerprintContract(harness);
