export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
} from '../errors.js';
export {
  canonicalJson,
  canonicalJsonString,
  canonicalJsonWithLossyNumbers,
  findLossyNumbers,
} from './canonical-json.js';
export { formatCanonicalNumber, isCanonicalNumber } from './format-number.js';
export { normalizeNumbers } from './normalize-numbers.js';
export { MAX_CANONICAL_DEPTH } from './traversal.js';
