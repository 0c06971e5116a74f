// The rule set, in priority order: when two rules match overlapping bytes, the earlier rule wins.
// Specific formats first, structural and URL rules next, generic assignments, then wallets'
// recovery phrases (whose words no other rule reads).
import cloud from './cloud.mjs';
import code from './code.mjs';
import ai from './ai.mjs';
import saas from './saas.mjs';
import keys from './keys.mjs';
import generic from './generic.mjs';
import wallet from './wallet.mjs';

const ordered = [...cloud, ...code, ...ai, ...saas, ...keys, ...generic, ...wallet];
// The catch-all `sk-` rule must come after every provider-specific `sk-…` rule.
const skStyle = ordered.findIndex((r) => r.id === 'sk-style-api-key');
const [sk] = ordered.splice(skStyle, 1);
const urlPassword = ordered.findIndex((r) => r.id === 'url-password');
ordered.splice(urlPassword, 0, sk);

/** Every rule, in priority order. */
export const rules = ordered;
export default rules;
