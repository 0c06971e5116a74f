import { harness } from './harness.ts';
import { allContracts } from '../contract/all.contract.ts';
import { workerCrashContract } from '../contract/worker-crash.contract.ts';

allContracts(harness);
workerCrashContract(harness);
