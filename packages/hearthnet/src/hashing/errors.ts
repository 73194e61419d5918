/**
 * Thrown when a string is not a content id this SDK accepts: `blake3:` or `sha256:` followed by 64
 * lowercase hex characters, or 64 bare lowercase hex characters.
 */
export class InvalidContentIdError extends Error {
  override readonly name = 'InvalidContentIdError';
  readonly code = 'invalid_content_id';
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(value: unknown, reason: string, options?: ErrorOptions) {
    super(`invalid content id ${describeValue(value)}: ${reason}`, options);
    this.value = value;
  }
}

/**
 * Thrown when data to hash is neither a `Uint8Array` nor a string, or is a string that has no UTF-8
 * form (it holds a lone UTF-16 surrogate).
 */
export class InvalidHashInputError extends Error {
  override readonly name = 'InvalidHashInputError';
  readonly code = 'invalid_hash_input';
}

/** Thrown when a chunk size is not a positive safe integer. */
export class InvalidChunkSizeError extends Error {
  override readonly name = 'InvalidChunkSizeError';
  readonly code = 'invalid_chunk_size';
  /** The rejected chunk size, as received. */
  readonly chunkSizeBytes: unknown;

  constructor(chunkSizeBytes: unknown) {
    super(`chunk size must be a positive safe integer, got ${describeValue(chunkSizeBytes)}`);
    this.chunkSizeBytes = chunkSizeBytes;
  }
}

/**
 * Thrown when a {@link Hasher} cannot name a content id: its algorithm is not a lowercase
 * `[a-z0-9-]` name, or its digest is not 32 bytes.
 */
export class InvalidHasherError extends Error {
  override readonly name = 'InvalidHasherError';
  readonly code = 'invalid_hasher';
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
