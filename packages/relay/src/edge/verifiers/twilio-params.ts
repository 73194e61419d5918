import { compareCodePoints } from './code-point-order.js';

/** One decoded form parameter, in the order it came. */
export type TwilioParam = readonly [name: string, value: string];

/**
 * The parameters of an `application/x-www-form-urlencoded` body as the WHATWG form parser decodes
 * them (`+` is a space, percent-escapes are UTF-8, malformed sequences become U+FFFD), in order.
 */
export function parseFormParams(body: Uint8Array): readonly TwilioParam[] {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  // Latin-1 keeps each byte as one code unit; re-encoding it as UTF-8 would change raw bytes, so
  // escape every non-ASCII byte and let the parser decode the escapes as UTF-8.
  const escaped = text.replace(/[\u0080-\u00ff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return [...new URLSearchParams(escaped)];
}

/**
 * The text Twilio signs: the URL, then for every parameter name in code-point order, and for each of
 * its distinct values in code-point order, the name immediately followed by the value (Twilio's
 * validators drop repeated equal values and sort the rest).
 */
export function twilioSignedText(url: string, params: readonly TwilioParam[]): string {
  const valuesByName = new Map<string, Set<string>>();
  for (const [name, value] of params) {
    const values = valuesByName.get(name) ?? new Set<string>();
    values.add(value);
    valuesByName.set(name, values);
  }
  let text = url;
  for (const name of [...valuesByName.keys()].sort(compareCodePoints)) {
    for (const value of [...valuesByName.get(name)!].sort(compareCodePoints)) text += name + value;
  }
  return text;
}
