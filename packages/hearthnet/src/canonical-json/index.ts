export { canonicalJson, canonicalJsonString } from './canonical-json.js';
export { CanonicalJsonError, type CanonicalJsonErrorCode } from './errors.js';
export { formatCanonicalNumber, isCanonicalNumber } from './format-number.js';
export { findLossyNumbers } from './lossy-numbers.js';
export { normalizeNumbers } from './normalize-numbers.js';
export { MAX_CANONICAL_DEPTH } from './traversal.js';
