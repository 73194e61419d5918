/**
 * Thrown when key material is unusable: a seed or public key that is not a `Uint8Array` of exactly
 * 32 bytes, or a key pair whose fields are not.
 */
export class InvalidKeyError extends Error {
  override readonly name = 'InvalidKeyError';
  readonly code = 'invalid_key';
}

/** Why {@link parseNodeId} refused a node id. */
export type InvalidNodeIdReason =
  /** The value is not a string. */
  | 'not_a_string'
  /** The id does not start with `ed25519:`. */
  | 'missing_prefix'
  /** The id is the short display form (`ed25519:XXXX-XXXX-…`), which holds only 8 key bytes. */
  | 'short_form'
  /** The part after the prefix is not base64url (strict, or the reference's lenient decoding). */
  | 'invalid_encoding'
  /** The part after the prefix decodes, but not to 32 bytes. */
  | 'wrong_length';

/** Thrown when a string is not a full node id, `ed25519:<base64url of a 32-byte public key>`. */
export class InvalidNodeIdError extends Error {
  override readonly name = 'InvalidNodeIdError';
  readonly code = 'invalid_node_id';
  /** Which rule the id broke. */
  readonly reason: InvalidNodeIdReason;
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(reason: InvalidNodeIdReason, value: unknown, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
    this.value = value;
  }
}

/** Thrown by {@link signPayload} when the payload is not a plain JSON object. */
export class InvalidPayloadError extends Error {
  override readonly name = 'InvalidPayloadError';
  readonly code = 'invalid_payload';
}
