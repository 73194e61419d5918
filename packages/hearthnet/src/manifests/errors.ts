import type { JsonPathSegment } from '../canonical-json/json-path.js';
import { formatJsonPath } from '../canonical-json/json-path.js';

/** Thrown when a value is not a contract timestamp (RFC 3339 UTC with `Z`, contract §1.1), or a time cannot be one. */
export class InvalidTimestampError extends Error {
  override readonly name = 'InvalidTimestampError';
  readonly code = 'invalid_timestamp';
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(value: unknown, message: string) {
    super(`${message}, got ${describe(value)}`);
    this.value = value;
  }
}

/**
 * Thrown by {@link buildNodeManifest} when its input does not make a valid contract §6.1 manifest.
 * (A manifest received from a peer is judged by `verifyNodeManifest` instead, which answers with the
 * contract's error codes.)
 */
export class InvalidNodeManifestError extends Error {
  override readonly name = 'InvalidNodeManifestError';
  readonly code = 'invalid_node_manifest';
  /** Where the first broken rule is, as a JSON path such as `$.endpoints[0].port`. */
  readonly path: string;

  constructor(path: readonly JsonPathSegment[], reason: string, options?: ErrorOptions) {
    const at = formatJsonPath(path);
    super(`invalid node manifest at ${at}: ${reason}`, options);
    this.path = at;
  }
}

/** Thrown by {@link startManifestRepublisher} for unusable options. */
export class InvalidRepublisherOptionsError extends Error {
  override readonly name = 'InvalidRepublisherOptionsError';
  readonly code = 'invalid_republisher_options';
}

/** Thrown by {@link createManifestHandler} and {@link fetchNodeManifest} for unusable options. */
export class InvalidManifestHandlerOptionsError extends Error {
  override readonly name = 'InvalidManifestHandlerOptionsError';
  readonly code = 'invalid_manifest_handler_options';
}

function describe(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
    : String(value);
}
