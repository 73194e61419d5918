// The session-key oracle: the gateway's `build_session_key`, byte for byte. There is deliberately no
// parser: ids and profiles are joined with `:` unescaped and parts are optional, so a key cannot be
// split back into its fields unambiguously.
export {
  type BuildSessionKeyOptions,
  buildSessionKey,
  SESSION_KEY_DIALECTS,
  type SessionKeyDialect,
} from './build-session-key.js';
export type { SessionKeyScalar, SessionKeyValue } from './session-key-scalar.js';
export type { SessionKeySource } from './session-key-source.js';
export { canonicalWhatsAppIdentifier, normalizeWhatsAppIdentifier } from './whatsapp-identifier.js';
