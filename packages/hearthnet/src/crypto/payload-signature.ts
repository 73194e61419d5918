import { isJsonObject, messageOf } from '@agentwire/internal';
import {
  canonicalJsonWithLossyNumbers,
  normalizedCanonicalJson,
  type normalizeNumbers,
} from '../canonical-json/canonical-json.js';
import { base64UrlDecode, base64UrlDecodeLenient, base64UrlEncode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';
import type { Ed25519Backend } from './ed25519.js';
import {
  assertKeyBytes,
  type Ed25519Options,
  ed25519Sign,
  ed25519Verify,
  KEY_BYTES,
  SIGNATURE_BYTES,
} from './ed25519.js';
import type { KeyPair } from './key-pair.js';
import { ED25519_PREFIX, parseNodeId } from './key-pair.js';

/** The field that carries a payload's signature. */
const SIGNATURE_FIELD = 'signature';
/** `<algorithm>:` at the start of a signature string. */
const ALGORITHM_PREFIX = /^[A-Za-z0-9._-]+:/;

/** Why {@link verifyPayload} refused a payload. */
export type VerifyFailureReason =
  | 'not_an_object'
  | 'missing_signature'
  | 'unsupported_algorithm'
  | 'malformed_signature'
  | 'invalid_public_key'
  | 'unencodable_payload'
  | 'signature_mismatch';

/**
 * The verdict of {@link verifyPayload}. `lossyNumbers` lists the JSON paths of numbers that are not
 * in canonical form: the signature covers their canonical (`%g`) value, so it also covers every
 * other number that rounds the same way. It is present only when there are such numbers.
 */
export type PayloadVerification =
  | { readonly valid: true; readonly lossyNumbers?: string[] }
  | {
      readonly valid: false;
      readonly reason: VerifyFailureReason;
      readonly detail?: string;
      readonly lossyNumbers?: string[];
    };

/**
 * What {@link signPayload} returns: the payload's fields (numbers normalised to their canonical
 * value) and `signature: "ed25519:<base64url>"`.
 */
export type SignedPayload<T> = Omit<T, 'signature'> & { signature: string };

/** Options of {@link verifyPayload}. */
export interface VerifyPayloadOptions {
  /**
   * Decode the signature and a node id as the Python reference does (`=` padding, `+/`, stray
   * characters skipped: see `base64UrlDecodeLenient`). Default: strict base64url.
   */
  readonly lenientEncoding?: boolean;
  /** The Ed25519 backend; the verification rule is the same for all. */
  readonly backend?: Ed25519Backend;
}

/**
 * Signs a JSON object the HearthNet way: drops the top-level `signature` (nested ones are data),
 * replaces every number by its canonical value ({@link normalizeNumbers}) so the bytes signed are
 * the bytes a receiver re-derives, signs the canonical JSON of that, and returns a new object: the
 * normalised copy plus `signature: "ed25519:<base64url>"`. The input is not modified.
 *
 * Send the result as `canonicalJsonString(signed)` (what this package's client and handlers send),
 * not `JSON.stringify(signed)`: an integral number from 1e16 up to 1e21 is signed as a Python float
 * (`1e+16`), and `JSON.stringify` writes it as digits, which a Python reference reads as an `int` and
 * re-canonicalises differently, so its `verify_payload` fails.
 *
 * Throws {@link HearthNetLocalError}: a canonical JSON code for a payload canonical JSON cannot encode,
 * `invalid_key` for a bad key and {@link HearthNetLocalError} `invalid_payload` when `payload` is not an
 * object.
 *
 * @example
 * const signed = signPayload({ type: 'hello', n: 1 }, keyPair);
 * signed.signature; // 'ed25519:…' (86 base64url characters)
 */
export function signPayload<T extends Readonly<Record<string, unknown>>>(
  payload: T,
  key: KeyPair | Uint8Array,
  options: Ed25519Options = {},
): SignedPayload<T> {
  if (!isJsonObject(payload))
    throw new HearthNetLocalError('invalid_payload', 'a signed payload must be a JSON object');
  const seed = seedOf(key);
  // The normalised copy and its canonical bytes, in one walk.
  const { copy, bytes } = normalizedCanonicalJson(withoutSignature(payload));
  const signature = ed25519Sign(bytes, seed, options);
  const signed = copy as Record<string, unknown>;
  signed[SIGNATURE_FIELD] = ED25519_PREFIX + base64UrlEncode(signature);
  return signed as SignedPayload<T>;
}

/**
 * Verifies a payload signed by {@link signPayload} or by the Python reference's `sign_payload`,
 * against a 32-byte public key or a full node id. Never throws: every failure is a verdict with a
 * `reason`, checked in this order: `not_an_object`, `invalid_public_key` (not 32 bytes, or a node
 * id {@link parseNodeId} refuses), `missing_signature`, `unsupported_algorithm` (a prefix other than
 * `ed25519:`), `malformed_signature` (not a string, not base64url, not 64 bytes),
 * `unencodable_payload`, `signature_mismatch` (including keys that are not valid curve points).
 *
 * The canonical JSON of the payload as received is what gets checked, as the reference does; its
 * lossy numbers are reported in `lossyNumbers`.
 *
 * @example
 * const verdict = verifyPayload(JSON.parse(body), senderNodeId);
 * if (!verdict.valid) throw new Error(`bad signature: ${verdict.reason}`);
 */
export function verifyPayload(
  payload: unknown,
  publicKeyOrNodeId: Uint8Array | string,
  options: VerifyPayloadOptions = {},
): PayloadVerification {
  if (!isJsonObject(payload)) return failure('not_an_object', 'a signed payload must be a JSON object');
  const lenient = options.lenientEncoding === true;
  let publicKey: Uint8Array;
  if (publicKeyOrNodeId instanceof Uint8Array) {
    if (publicKeyOrNodeId.length !== KEY_BYTES) {
      return failure(
        'invalid_public_key',
        `a public key has ${KEY_BYTES} bytes, got ${publicKeyOrNodeId.length}`,
      );
    }
    publicKey = publicKeyOrNodeId;
  } else {
    try {
      publicKey = parseNodeId(publicKeyOrNodeId, { lenient });
    } catch (error) {
      return failure('invalid_public_key', messageOf(error));
    }
  }

  const field = Object.hasOwn(payload, SIGNATURE_FIELD) ? payload[SIGNATURE_FIELD] : undefined;
  if (field === undefined) return failure('missing_signature', 'the payload has no signature field');
  if (typeof field !== 'string') return failure('malformed_signature', `the signature is a ${typeof field}`);
  if (!field.startsWith(ED25519_PREFIX)) {
    return ALGORITHM_PREFIX.test(field)
      ? failure('unsupported_algorithm', `signature algorithm ${JSON.stringify(field.split(':')[0])}`)
      : failure('malformed_signature', "the signature does not start with 'ed25519:'");
  }
  let signature: Uint8Array;
  try {
    const encoded = field.slice(ED25519_PREFIX.length);
    signature = lenient ? base64UrlDecodeLenient(encoded) : base64UrlDecode(encoded);
  } catch (error) {
    return failure('malformed_signature', messageOf(error));
  }
  if (signature.length !== SIGNATURE_BYTES) {
    return failure(
      'malformed_signature',
      `a signature has ${SIGNATURE_BYTES} bytes, got ${signature.length}`,
    );
  }

  let message: Uint8Array;
  let lossyNumbers: string[];
  try {
    const unsigned = withoutSignature(payload);
    ({ bytes: message, lossyNumbers } = canonicalJsonWithLossyNumbers(unsigned));
  } catch (error) {
    return failure('unencodable_payload', messageOf(error));
  }
  const verifyOptions = options.backend === undefined ? {} : { backend: options.backend };
  if (!ed25519Verify(signature, message, publicKey, verifyOptions)) {
    return failure('signature_mismatch', 'the signature does not match the payload and key', lossyNumbers);
  }
  return lossyNumbers.length > 0 ? { valid: true, lossyNumbers } : { valid: true };
}

function failure(
  reason: VerifyFailureReason,
  detail: string,
  lossyNumbers: string[] = [],
): PayloadVerification {
  return lossyNumbers.length > 0
    ? { valid: false, reason, detail, lossyNumbers }
    : { valid: false, reason, detail };
}

function seedOf(key: KeyPair | Uint8Array): Uint8Array {
  if (key instanceof Uint8Array) {
    assertKeyBytes(key, 'a signing seed');
    return key;
  }
  if (typeof key !== 'object' || key === null)
    throw new HearthNetLocalError('invalid_key', 'a signing key must be a KeyPair or a seed');
  assertKeyBytes(key.secretKey, "a key pair's secretKey");
  return key.secretKey;
}

/**
 * A shallow copy without the top-level `signature`, keeping the prototype so canonical JSON still
 * refuses a non-plain object.
 */
function withoutSignature(payload: Record<string, unknown>): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(payload);
  const copy = (prototype === Object.prototype ? {} : Object.create(prototype)) as Record<string, unknown>;
  for (const key of Object.keys(payload)) {
    if (key === SIGNATURE_FIELD) continue;
    // An own "__proto__" key (JSON.parse makes one) must stay data, not become the prototype.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: payload[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = payload[key];
    }
  }
  return copy;
}
