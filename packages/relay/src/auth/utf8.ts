import { RelayError } from '../errors.js';

const encoder = new TextEncoder();
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * UTF-8 bytes of `text`; throws a `RelayError` `relay_token_unpaired_surrogate` (at `path`) for an unpaired
 * surrogate.
 */
export function utf8Strict(text: string, path: string): Uint8Array {
  const match = UNPAIRED_SURROGATE.exec(text);
  if (match !== null) {
    throw new RelayError(
      'relay_token_unpaired_surrogate',
      `${path} holds an unpaired surrogate at index ${match.index}, which has no UTF-8 form`,
      { path },
    );
  }
  return encoder.encode(text);
}
