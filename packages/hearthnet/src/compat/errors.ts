/** Thrown when a value cannot be written as Python `json.dumps` would (a non-finite number, a cycle, a non-JSON value). */
export class PythonJsonError extends Error {
  override readonly name = 'PythonJsonError';
  readonly code = 'python_json_unencodable';
  /** The JSON path of the offending value, e.g. `$.payload.n`. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}

/** Thrown by `parseReferenceJson` for text that is not JSON. */
export class ReferenceJsonSyntaxError extends Error {
  override readonly name = 'ReferenceJsonSyntaxError';
  readonly code = 'reference_json_syntax';
  /** The character offset where parsing stopped. */
  readonly offset: number;

  constructor(offset: number, message: string) {
    super(`${message} at offset ${offset}`);
    this.offset = offset;
  }
}

/** Thrown for a string that is not a reference event id (26 RFC 4648 base32 characters, `A–Z 2–7`). */
export class InvalidReferenceEventIdError extends Error {
  override readonly name = 'InvalidReferenceEventIdError';
  readonly code = 'invalid_reference_event_id';
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(value: unknown, message: string) {
    super(message);
    this.value = value;
  }
}

/** Thrown for a reference `issued_at` that is not `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` (UTC, at most 6 fraction digits). */
export class InvalidReferenceTimestampError extends Error {
  override readonly name = 'InvalidReferenceTimestampError';
  readonly code = 'invalid_reference_timestamp';
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(value: unknown, message: string, options?: ErrorOptions) {
    super(message, options);
    this.value = value;
  }
}

/** Thrown when a reference event does not have the reference envelope's nine fields with their types. */
export class MalformedReferenceEventError extends Error {
  override readonly name = 'MalformedReferenceEventError';
  readonly code = 'malformed_reference_event';
  /** The JSON path of the offending field (`$` for the event as a whole). */
  readonly path: string;

  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.path = path;
  }
}

/** Why an event cannot be carried from one form to the other. */
export type EventConversionReason =
  /** The event id has no counterpart (a reference time beyond 48 bits, a prefixed id such as `evt:…`). */
  | 'unconvertible_event_id'
  /** The timestamp has no counterpart in the other form. */
  | 'unconvertible_timestamp'
  /** A number the contract cannot carry (an integer beyond 2⁵³, a non-finite value). */
  | 'unconvertible_number'
  /** The converted event breaks the contract envelope or its type's `data` schema. */
  | 'invalid_contract_event';

/** Thrown when a reference event cannot become a contract event, or the other way round. */
export class EventConversionError extends Error {
  override readonly name = 'EventConversionError';
  readonly code = 'event_conversion';
  readonly reason: EventConversionReason;
  /** The JSON path of the field that could not be converted. */
  readonly path: string;

  constructor(reason: EventConversionReason, path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
    this.path = path;
  }
}

/** Why an `hn1:` invite blob was refused. */
export type InvalidInviteReason =
  /** The blob does not start with `hn1:`. */
  | 'wrong_prefix'
  /** The rest is not base64url, or not UTF-8. */
  | 'invalid_encoding'
  /** The decoded bytes are not a JSON object. */
  | 'invalid_json'
  /** A required field is missing or not a string. */
  | 'invalid_field';

/** Thrown when an `hn1:` invite blob cannot be read, or an invite cannot be written as one. */
export class InvalidInviteError extends Error {
  override readonly name = 'InvalidInviteError';
  readonly code = 'invalid_invite';
  readonly reason: InvalidInviteReason;

  constructor(reason: InvalidInviteReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** Thrown when a reference manifest cannot be given a contract shape (the field's path says which). */
export class ManifestConversionError extends Error {
  override readonly name = 'ManifestConversionError';
  readonly code = 'manifest_conversion';
  /** The JSON path of the offending field. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}

/** Thrown when a value is not a reference manifest of the expected form (the field's path says where). */
export class MalformedReferenceManifestError extends Error {
  override readonly name = 'MalformedReferenceManifestError';
  readonly code = 'malformed_reference_manifest';
  /** The JSON path of the offending field. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}

/** Thrown when a reference snapshot does not have the reference's seven fields with their types. */
export class MalformedReferenceSnapshotError extends Error {
  override readonly name = 'MalformedReferenceSnapshotError';
  readonly code = 'malformed_reference_snapshot';
  /** The JSON path of the offending field (`$` for the snapshot as a whole). */
  readonly path: string;

  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.path = path;
  }
}

/** Thrown when an SSE frame cannot be written as the reference writes it (an unusable event name). */
export class InvalidReferenceSseFrameError extends Error {
  override readonly name = 'InvalidReferenceSseFrameError';
  readonly code = 'invalid_reference_sse_frame';
}

/** Thrown when a blob manifest does not have the fields the reference's `manifest_cid` hashes. */
export class MalformedReferenceBlobManifestError extends Error {
  override readonly name = 'MalformedReferenceBlobManifestError';
  readonly code = 'malformed_reference_blob_manifest';
  /** The JSON path of the offending field. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}
