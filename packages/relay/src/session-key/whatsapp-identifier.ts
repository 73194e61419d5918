import { RelayError } from '../errors.js';
import { isPythonTruthy, pythonStrip } from '../python/index.js';
import { keyPartStr, type SessionKeyValue } from './session-key-scalar.js';

// The characters the gateway's LID-mapping walk accepts in an identifier; anything else is skipped,
// and an identifier whose only alias is skipped leaves the walk empty.
const RESOLVABLE_IDENTIFIER = /^[A-Za-z0-9@.+-]+$/;

/**
 * The gateway's WhatsApp normalisation: the text form of the value (falsy → `""`), stripped of
 * Python whitespace, the first `+` anywhere removed, then cut at the first `:` and at the first `@`.
 *
 * @example
 * normalizeWhatsAppIdentifier('+60123456789:47@s.whatsapp.net'); // '60123456789'
 */
export function normalizeWhatsAppIdentifier(value: SessionKeyValue, path = 'identifier'): string {
  const text = pythonStrip(isPythonTruthy(value) ? keyPartStr(value, path) : '').replace('+', '');
  return cutAtFirst(cutAtFirst(text, ':'), '@');
}

/**
 * The identity the gateway keys a WhatsApp DM chat or group participant under, assuming no
 * LID-mapping files exist on the gateway host (a fresh bridge). Those files live on the gateway and
 * can map a phone id and a LID onto each other; with them the gateway picks the shortest alias of the
 * mapped set, which no connector can know. `""` when the value normalises to nothing.
 *
 * The gateway normalises twice (once itself, once again inside its alias walk), so `"++60"` becomes
 * `"60"` and `" + 60"` becomes `"60"`.
 *
 * @throws {RelayError} `whatsapp_identifier_unresolvable`: where the gateway crashes: the second
 * normalisation is empty, or contains a character outside `[A-Za-z0-9@.+-]` (a space, `/`, `_`, non-ASCII).
 * @example
 * canonicalWhatsAppIdentifier('60123456789@s.whatsapp.net'); // '60123456789'
 * canonicalWhatsAppIdentifier('@lid'); // ''
 */
export function canonicalWhatsAppIdentifier(value: SessionKeyValue, path = 'identifier'): string {
  const normalized = normalizeWhatsAppIdentifier(value, path);
  if (normalized === '') return '';
  const alias = normalizeWhatsAppIdentifier(normalized, path);
  if (!RESOLVABLE_IDENTIFIER.test(alias)) {
    throw new RelayError(
      'whatsapp_identifier_unresolvable',
      `WhatsApp identifier in ${path} normalises to ${JSON.stringify(normalized)}, which the gateway cannot resolve (it crashes on this source)`,
      { path, details: { normalized } },
    );
  }
  return alias;
}

function cutAtFirst(text: string, separator: string): string {
  const index = text.indexOf(separator);
  return index === -1 ? text : text.slice(0, index);
}
