// The ctxgate core: a numeric ABI over bytes in the I/O window. Each capability lives in its own
// file and is re-exported here; the host glue in src/core/ is the only code that calls these.
export { ioInput, ioOutput, ioOutputLen, ioRelease } from './io';
export { crc32, utf8Validate } from './checksum';
export { textFacts } from './text';
export { utf16ToUtf8 } from './utf16';
export { sha256, sha256Batch, sha256Init, sha256Update, sha256Final, sha256Drop } from './sha256';
export { sortBlocks } from './sort';
export { secretScan, secretScanSteps, secretRuleCount, secretPositions } from './scan/scan';
export { tokensEstimate, tokensEstimatorVersion } from './tokens/estimate';
