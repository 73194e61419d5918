import { RelayError } from '../../errors.js';
import { decodeUtf8 } from './bytes.js';

/** The JSON value of a UTF-8 body; throws `malformed_body` for anything else (a BOM included). */
export function parseJsonBody(body: Uint8Array): unknown {
  const text = decodeUtf8(body);
  if (text === undefined)
    throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RelayError('malformed_body', 'the body is not JSON', { path: 'body', cause: error });
  }
}
