// Entry of the frozen reference scanner (see scan-before.as).
export { secretScan, secretScanSteps, secretOffsetsUtf16 } from './scan-before';
export { ioInput, ioOutput, ioOutputLen } from '../../../assembly/io';
