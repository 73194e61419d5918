import { HearthNetLocalError } from '../errors.js';

/** The 13 error codes of contract §9, in the order of its table. */
export const HEARTHNET_ERROR_CODES = [
  'bad_request',
  'schema_mismatch',
  'invalid_signature',
  'unauthorized',
  'revoked',
  'expired',
  'not_found',
  'not_implemented',
  'timeout',
  'partition',
  'capacity_exceeded',
  'rate_limited',
  'internal_error',
] as const;

/** An error code of contract §9. */
export type HearthNetErrorCode = (typeof HEARTHNET_ERROR_CODES)[number];

/**
 * When a failed call may be retried (contract §9 "Retry?"): `never`; `with_backoff` (timeout,
 * partition); `after_retry_after` (capacity_exceeded, rate_limited: honour `retry_after_ms`);
 * `if_idempotent` (internal_error: "maybe, idempotent capabilities only").
 */
export type RetryPolicy = 'never' | 'with_backoff' | 'after_retry_after' | 'if_idempotent';

interface CodeRule {
  readonly status: number;
  readonly retry: RetryPolicy;
  readonly summary: string;
}

const rules: { readonly [C in HearthNetErrorCode]: CodeRule } = {
  bad_request: { status: 400, retry: 'never', summary: 'malformed payload' },
  schema_mismatch: { status: 400, retry: 'never', summary: 'schema hash differs' },
  invalid_signature: { status: 401, retry: 'never', summary: 'signature verification failed' },
  unauthorized: { status: 401, retry: 'never', summary: 'caller lacks the required trust level' },
  revoked: { status: 403, retry: 'never', summary: "caller's node id is revoked" },
  expired: { status: 410, retry: 'never', summary: 'manifest or token past expires_at' },
  not_found: { status: 404, retry: 'never', summary: "resource doesn't exist" },
  not_implemented: { status: 501, retry: 'never', summary: 'capability declared but unimplemented' },
  timeout: { status: 408, retry: 'with_backoff', summary: 'exceeded server-side deadline' },
  partition: { status: 503, retry: 'with_backoff', summary: 'peer unreachable' },
  capacity_exceeded: { status: 429, retry: 'after_retry_after', summary: 'concurrent limit reached' },
  rate_limited: { status: 429, retry: 'after_retry_after', summary: 'rate budget exceeded' },
  internal_error: { status: 500, retry: 'if_idempotent', summary: 'server-side bug or crash' },
};

const codeSet: ReadonlySet<string> = new Set(HEARTHNET_ERROR_CODES);

/** Whether `value` is one of the 13 codes of contract §9. */
export function isHearthNetErrorCode(value: unknown): value is HearthNetErrorCode {
  return typeof value === 'string' && codeSet.has(value);
}

/**
 * The HTTP status of an error code (contract §5.5). Streams report errors in an `error` frame of a
 * 200 response instead.
 *
 * @example
 * ```ts
 * httpStatusForErrorCode('capacity_exceeded'); // 429
 * ```
 */
export function httpStatusForErrorCode(code: HearthNetErrorCode): number {
  return rules[code].status;
}

/** The retry rule of an error code (contract §9). */
export function retryPolicyForErrorCode(code: HearthNetErrorCode): RetryPolicy {
  return rules[code].retry;
}

/** Options every HearthNet error takes: the optional fields of the §5.4 error body, and a `cause`. */
export interface HearthNetErrorOptions extends ErrorOptions {
  /** How long to wait before retrying, in milliseconds (a non-negative integer). */
  readonly retryAfterMs?: number;
  /** Other capabilities (`name@X.Y`) that could serve the call. */
  readonly altCapabilities?: readonly string[];
  /** Other nodes (full node ids) that could serve the call. */
  readonly altNodes?: readonly string[];
  /**
   * The error code exactly as a peer sent it, when it was not one of the 13 codes (the reference
   * sends `call_error`, `not_found: <cid>`, …) and was mapped onto this one.
   */
  readonly remoteCode?: string;
}

/**
 * Base class of the 13 errors of contract §9: catch it to handle any failed capability call. `code`
 * is the wire code, `status` the HTTP status (§5.5), `retryPolicy` and `retryable` say whether to try
 * again (§9); `toErrorBody` and `errorFromBody` convert to and from the §5.4 body.
 */
export abstract class HearthNetError extends Error {
  abstract readonly code: HearthNetErrorCode;
  readonly retryAfterMs: number | undefined;
  readonly altCapabilities: readonly string[] | undefined;
  readonly altNodes: readonly string[] | undefined;
  readonly remoteCode: string | undefined;

  constructor(message: string | undefined, options: HearthNetErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const { retryAfterMs, altCapabilities, altNodes, remoteCode } = options;
    if (retryAfterMs !== undefined && (!Number.isSafeInteger(retryAfterMs) || retryAfterMs < 0)) {
      throw new HearthNetLocalError(
        'invalid_error_options',
        `retryAfterMs must be a non-negative integer, got ${String(retryAfterMs)}`,
      );
    }
    this.retryAfterMs = retryAfterMs;
    this.altCapabilities = stringList(altCapabilities, 'altCapabilities');
    this.altNodes = stringList(altNodes, 'altNodes');
    this.remoteCode = remoteCode;
  }

  /** The HTTP status of this error's code (contract §5.5). */
  get status(): number {
    return httpStatusForErrorCode(this.code);
  }

  /** The retry rule of this error's code (contract §9). */
  get retryPolicy(): RetryPolicy {
    return retryPolicyForErrorCode(this.code);
  }

  /** Whether retrying is right for any capability: `timeout`, `partition`, `capacity_exceeded`, `rate_limited`. */
  get retryable(): boolean {
    return this.retryPolicy === 'with_backoff' || this.retryPolicy === 'after_retry_after';
  }

  /** Whether to retry a call to a capability that is (or is not) idempotent; `internal_error` depends on it. */
  shouldRetry(capabilityIsIdempotent: boolean): boolean {
    return this.retryable || (this.retryPolicy === 'if_idempotent' && capabilityIsIdempotent);
  }
}

function stringList(value: readonly string[] | undefined, field: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new HearthNetLocalError('invalid_error_options', `${field} must be an array of strings`);
  }
  return Object.freeze([...value]);
}

function messageFor(code: HearthNetErrorCode, message: string | undefined): string {
  return message ?? `${code}: ${rules[code].summary}`;
}

/** `bad_request` (400): the payload is malformed. */
export class BadRequestError extends HearthNetError {
  override readonly name = 'BadRequestError';
  readonly code = 'bad_request';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('bad_request', message), options);
  }
}

/** Options of {@link SchemaMismatchError}: the schema hash the server speaks. */
export interface SchemaMismatchErrorOptions extends HearthNetErrorOptions {
  /** `blake3:<hex>` of the capability as the server offers it. */
  readonly schemaHashExpected?: string;
}

/** `schema_mismatch` (400): the caller's schema hash differs from the server's; upgrade and resend. */
export class SchemaMismatchError extends HearthNetError {
  override readonly name = 'SchemaMismatchError';
  readonly code = 'schema_mismatch';
  readonly schemaHashExpected: string | undefined;
  constructor(message?: string, options: SchemaMismatchErrorOptions = {}) {
    super(messageFor('schema_mismatch', message), options);
    if (options.schemaHashExpected !== undefined && typeof options.schemaHashExpected !== 'string') {
      throw new HearthNetLocalError('invalid_error_options', 'schemaHashExpected must be a string');
    }
    this.schemaHashExpected = options.schemaHashExpected;
  }
}

/** `invalid_signature` (401): signature verification failed. */
export class InvalidSignatureError extends HearthNetError {
  override readonly name = 'InvalidSignatureError';
  readonly code = 'invalid_signature';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('invalid_signature', message), options);
  }
}

/** `unauthorized` (401): the caller lacks the required trust level. */
export class UnauthorizedError extends HearthNetError {
  override readonly name = 'UnauthorizedError';
  readonly code = 'unauthorized';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('unauthorized', message), options);
  }
}

/** `revoked` (403): the caller's node id is revoked. */
export class RevokedError extends HearthNetError {
  override readonly name = 'RevokedError';
  readonly code = 'revoked';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('revoked', message), options);
  }
}

/** `expired` (410): a manifest or token is past its `expires_at`; re-issue and resend. */
export class ExpiredError extends HearthNetError {
  override readonly name = 'ExpiredError';
  readonly code = 'expired';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('expired', message), options);
  }
}

/** `not_found` (404): the resource (corpus, CID, post, capability) does not exist. */
export class NotFoundError extends HearthNetError {
  override readonly name = 'NotFoundError';
  readonly code = 'not_found';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('not_found', message), options);
  }
}

/** `not_implemented` (501): the capability is declared but its backend is missing. */
export class NotImplementedError extends HearthNetError {
  override readonly name = 'NotImplementedError';
  readonly code = 'not_implemented';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('not_implemented', message), options);
  }
}

/**
 * `timeout` (408): the server-side deadline passed; retry with backoff. (Not the DOM `TimeoutError`
 * of `AbortSignal.timeout`, though it shares the name.)
 */
export class TimeoutError extends HearthNetError {
  override readonly name = 'TimeoutError';
  readonly code = 'timeout';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('timeout', message), options);
  }
}

/** `partition` (503): the peer is unreachable; retry with backoff. */
export class PartitionError extends HearthNetError {
  override readonly name = 'PartitionError';
  readonly code = 'partition';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('partition', message), options);
  }
}

/** `capacity_exceeded` (429): the capability's `max_concurrent` is reached; retry after `retryAfterMs`. */
export class CapacityExceededError extends HearthNetError {
  override readonly name = 'CapacityExceededError';
  readonly code = 'capacity_exceeded';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('capacity_exceeded', message), options);
  }
}

/** `rate_limited` (429): the caller's rate budget is spent; retry after `retryAfterMs`. */
export class RateLimitedError extends HearthNetError {
  override readonly name = 'RateLimitedError';
  readonly code = 'rate_limited';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('rate_limited', message), options);
  }
}

/** `internal_error` (500): a server-side bug or crash; retry only idempotent capabilities. */
export class InternalError extends HearthNetError {
  override readonly name = 'InternalError';
  readonly code = 'internal_error';
  constructor(message?: string, options?: HearthNetErrorOptions) {
    super(messageFor('internal_error', message), options);
  }
}

const classes: {
  readonly [C in HearthNetErrorCode]: new (
    message?: string,
    options?: SchemaMismatchErrorOptions,
  ) => HearthNetError;
} = {
  bad_request: BadRequestError,
  schema_mismatch: SchemaMismatchError,
  invalid_signature: InvalidSignatureError,
  unauthorized: UnauthorizedError,
  revoked: RevokedError,
  expired: ExpiredError,
  not_found: NotFoundError,
  not_implemented: NotImplementedError,
  timeout: TimeoutError,
  partition: PartitionError,
  capacity_exceeded: CapacityExceededError,
  rate_limited: RateLimitedError,
  internal_error: InternalError,
};

/**
 * The error class of a code, constructed. `schemaHashExpected` is kept for `schema_mismatch` only.
 *
 * @throws {HearthNetLocalError} `invalid_error_options` when `code` is not one of the 13 codes, or an
 *   option is malformed.
 * @example
 * ```ts
 * createHearthNetError('rate_limited', undefined, { retryAfterMs: 2000 }).status; // 429
 * ```
 */
export function createHearthNetError(
  code: HearthNetErrorCode,
  message?: string,
  options: SchemaMismatchErrorOptions = {},
): HearthNetError {
  if (!isHearthNetErrorCode(code)) {
    throw new HearthNetLocalError(
      'invalid_error_options',
      `unknown HearthNet error code ${JSON.stringify(code)}`,
    );
  }
  const { schemaHashExpected, ...common } = options;
  const ErrorClass = classes[code];
  return code === 'schema_mismatch' && schemaHashExpected !== undefined
    ? new ErrorClass(message, options)
    : new ErrorClass(message, common);
}
