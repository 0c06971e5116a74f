// Property tests draw values up to about a hundred elements by default (fast-check's own default,
// 'small', stops near ten, so a `maxLength: 600` string was rarely longer than a few characters and
// the long-input paths went untested). Arbitraries that need a fixed distribution (recorded
// vectors) pin their own `size`.
import fc from 'fast-check';

fc.configureGlobal({ baseSize: 'medium' });
