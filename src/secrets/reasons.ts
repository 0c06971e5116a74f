/**
 * Why a candidate was left out of a context bundle: the spec's `excluded_candidates` reasons
 * (spec 001, ContextManifest) that the path and content gates decide.
 */
export type ExclusionReason = 'deny_rule' | 'binary' | 'too_large' | 'outside_sandbox' | 'secret_risk' | 'duplicate';
