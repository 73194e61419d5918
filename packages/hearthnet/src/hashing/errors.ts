import { HearthNetLocalError } from '../errors.js';

/**
 * The `invalid_content_id` error: `value` is not a content id this SDK accepts (`blake3:` or `sha256:`
 * followed by 64 lowercase hex characters, or 64 bare lowercase hex characters); `reason` says why.
 */
export function invalidContentId(
  value: unknown,
  reason: string,
  options?: ErrorOptions,
): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_content_id',
    `invalid content id ${describeValue(value)}: ${reason}`,
    {
      ...options,
      details: { value },
    },
  );
}

/** The `invalid_chunk_size` error: a chunk size that is not a positive safe integer. */
export function invalidChunkSize(chunkSizeBytes: unknown): HearthNetLocalError {
  return new HearthNetLocalError(
    'invalid_chunk_size',
    `chunk size must be a positive safe integer, got ${describeValue(chunkSizeBytes)}`,
    { path: 'chunkSizeBytes', details: { value: chunkSizeBytes } },
  );
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
