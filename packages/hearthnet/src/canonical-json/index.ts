export {
  canonicalJson,
  canonicalJsonString,
  canonicalJsonWithLossyNumbers,
  findLossyNumbers,
} from './canonical-json.js';
export { CanonicalJsonError, type CanonicalJsonErrorCode } from './errors.js';
export { formatCanonicalNumber, isCanonicalNumber } from './format-number.js';
export { normalizeNumbers } from './normalize-numbers.js';
export { MAX_CANONICAL_DEPTH } from './traversal.js';
