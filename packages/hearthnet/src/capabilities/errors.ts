/**
 * Thrown by {@link compileSchema} (and so by registration) when a capability schema uses a keyword
 * outside the supported JSON Schema subset, or uses one in an unsupported way.
 */
export class InvalidSchemaError extends Error {
  override readonly name = 'InvalidSchemaError';
  readonly code = 'invalid_schema';
  /** Where in the schema, as a JSON pointer fragment such as `#/properties/input/properties/k`. */
  readonly pointer: string;

  constructor(pointer: string, reason: string, options?: ErrorOptions) {
    super(`invalid schema at ${pointer}: ${reason}`, options);
    this.pointer = pointer;
  }
}

/** Why a capability name was refused. */
export type InvalidCapabilityNameReason =
  /** Not a string of dot-separated lowercase segments (`[a-z][a-z0-9_]*`, at least two), ≤ 128 chars. */
  | 'malformed'
  /** The prefix is reserved for Phase 2 (`ocr.`, `tts.`, `stt.`, `trans.`, `img.`), contract §3.1. */
  | 'reserved_prefix'
  /** The prefix is not allocated by contract §3.1; such capabilities must start with `experimental.`. */
  | 'unallocated_prefix';

/** Thrown when a capability name breaks the syntax or the prefix rules of contract §3.1. */
export class InvalidCapabilityNameError extends Error {
  override readonly name = 'InvalidCapabilityNameError';
  readonly code = 'invalid_capability_name';
  readonly reason: InvalidCapabilityNameReason;
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(reason: InvalidCapabilityNameReason, value: unknown, message: string) {
    super(message);
    this.reason = reason;
    this.value = value;
  }
}

/**
 * Thrown when a capability version (`"X.Y"`, contract §2.1), a reference (`name@X.Y`) or a requirement
 * (`name@>=A.B`) is malformed.
 */
export class InvalidCapabilityVersionError extends Error {
  override readonly name = 'InvalidCapabilityVersionError';
  readonly code = 'invalid_capability_version';
  /** The rejected value, as received. */
  readonly value: unknown;

  constructor(value: unknown, message: string) {
    super(message);
    this.value = value;
  }
}

/** Thrown when a descriptor or its registration options are unusable (see the message for the field). */
export class InvalidCapabilityDescriptorError extends Error {
  override readonly name = 'InvalidCapabilityDescriptorError';
  readonly code = 'invalid_capability_descriptor';
}

/** Thrown when a capability with the same name and version is registered twice. */
export class DuplicateCapabilityError extends Error {
  override readonly name = 'DuplicateCapabilityError';
  readonly code = 'duplicate_capability';
  readonly capability: string;

  constructor(capability: string) {
    super(`capability ${capability} is already registered`);
    this.capability = capability;
  }
}

/** Which part of a capability call a validator checks. */
export type CapabilityPayloadPart = 'request' | 'response' | 'stream';

/** One rule a value broke, at a JSON path such as `$.input.messages[0].role`. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown by a {@link SchemaValidator} when a value does not match its capability schema. A server
 * answers an invalid request with `bad_request` (see {@link asHearthNetError}).
 */
export class SchemaValidationError extends Error {
  override readonly name = 'SchemaValidationError';
  readonly code = 'schema_validation';
  /** `name@version` of the capability. */
  readonly capability: string;
  readonly part: CapabilityPayloadPart;
  /** Every rule that failed, first one first. */
  readonly issues: readonly SchemaIssue[];

  constructor(capability: string, part: CapabilityPayloadPart, issues: readonly SchemaIssue[]) {
    const first = issues[0];
    const summary = first === undefined ? 'invalid' : `${first.path}: ${first.message}`;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`${capability} ${part} does not match its schema: ${summary}${more}`);
    this.capability = capability;
    this.part = part;
    this.issues = issues;
  }
}

/** Thrown when a HearthNet error is constructed with options the §5.4 body cannot carry. */
export class InvalidErrorOptionsError extends Error {
  override readonly name = 'InvalidErrorOptionsError';
  readonly code = 'invalid_error_options';
}
