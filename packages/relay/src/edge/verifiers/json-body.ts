import { decodeUtf8 } from './bytes.js';
import { MalformedBodyError } from './errors.js';

/** The JSON value of a UTF-8 body; throws {@link MalformedBodyError} for anything else (a BOM included). */
export function parseJsonBody(body: Uint8Array): unknown {
  const text = decodeUtf8(body);
  if (text === undefined) throw new MalformedBodyError('the body is not well-formed UTF-8', 'body');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MalformedBodyError('the body is not JSON', 'body', { cause: error });
  }
}
