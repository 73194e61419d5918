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
  formatCanonicalNumber,
  isCanonicalNumber,
  MAX_CANONICAL_DEPTH,
  normalizeNumbers,
} from './canonical-json.js';
