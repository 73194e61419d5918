import { isJsonObject } from '@agentwire/internal';
import { HearthNetLocalError, type HearthNetLocalErrorCode } from '../errors.js';
import {
  createHearthNetError,
  type HearthNetError,
  HearthNetError as HearthNetErrorClass,
  type HearthNetErrorCode,
  isHearthNetErrorCode,
  SchemaMismatchError,
  type SchemaMismatchErrorOptions,
} from './hearthnet-errors.js';

/** The JSON body of an error response (contract §5.4) and of a stream's `error` frame. */
export interface HearthNetErrorBody {
  readonly error: HearthNetErrorCode;
  readonly message?: string;
  readonly retry_after_ms?: number;
  readonly alt_capabilities?: readonly string[];
  readonly alt_nodes?: readonly string[];
  /** Only for `schema_mismatch`. */
  readonly schema_hash_expected?: string;
}

/** The code of each HTTP status of contract §5.5, used when a peer sends a code that is not one of the 13. */
const codeByStatus: ReadonlyMap<number, HearthNetErrorCode> = new Map([
  [400, 'bad_request'],
  [401, 'unauthorized'],
  [403, 'revoked'],
  [404, 'not_found'],
  [408, 'timeout'],
  [410, 'expired'],
  [429, 'rate_limited'],
  [500, 'internal_error'],
  [501, 'not_implemented'],
  [503, 'partition'],
]);

/**
 * The §5.4 body of an error (any thrown value goes through {@link asHearthNetError} first): `error`,
 * `message`, and whichever of `retry_after_ms`,
 * `alt_capabilities`, `alt_nodes`, `schema_hash_expected` the error carries.
 *
 * @example
 * ```ts
 * toErrorBody(new CapacityExceededError('busy', { retryAfterMs: 2000 }));
 * // { error: 'capacity_exceeded', message: 'busy', retry_after_ms: 2000 }
 * ```
 */
export function toErrorBody(error: unknown): HearthNetErrorBody {
  const converted = asHearthNetError(error);
  const body: {
    -readonly [K in keyof HearthNetErrorBody]: HearthNetErrorBody[K];
  } = { error: converted.code, message: converted.message };
  if (converted.retryAfterMs !== undefined) body.retry_after_ms = converted.retryAfterMs;
  if (converted.altCapabilities !== undefined) body.alt_capabilities = [...converted.altCapabilities];
  if (converted.altNodes !== undefined) body.alt_nodes = [...converted.altNodes];
  if (converted instanceof SchemaMismatchError && converted.schemaHashExpected !== undefined) {
    body.schema_hash_expected = converted.schemaHashExpected;
  }
  return body;
}

/**
 * The typed error of an error response: its body (parsed JSON) and HTTP status. Never throws; it
 * decodes leniently, because it reads what a peer sent:
 * - `error` one of the 13 codes → that class; `"<code>: <detail>"` (the reference's `not_found: <cid>`)
 *   → that class, with the detail as message when there is none;
 * - any other code, a FastAPI `{"detail": …}` body or no body → the code of `status` by §5.5
 *   (`internal_error` when the status names none, e.g. an in-band error with 200); `remoteCode` keeps
 *   the code the peer sent;
 * - optional fields of the wrong type are dropped.
 *
 * @example
 * ```ts
 * const error = errorFromBody({ error: 'rate_limited', retry_after_ms: 2000 }, 429);
 * error instanceof RateLimitedError; // true
 * error.retryAfterMs; // 2000
 * ```
 */
export function errorFromBody(body: unknown, status?: number): HearthNetError {
  const record = isJsonObject(body) ? body : {};
  const sent = typeof record['error'] === 'string' ? record['error'] : stringOrUndefined(record['detail']);
  let code: HearthNetErrorCode | undefined;
  let detail: string | undefined;
  if (isHearthNetErrorCode(sent)) code = sent;
  else if (sent !== undefined) {
    const colon = sent.indexOf(':');
    const head = colon === -1 ? undefined : sent.slice(0, colon).trim();
    if (isHearthNetErrorCode(head)) {
      code = head;
      detail = sent.slice(colon + 1).trim() || undefined;
    }
  }
  code ??= (status === undefined ? undefined : codeByStatus.get(status)) ?? 'internal_error';
  const message = stringOrUndefined(record['message']) ?? detail ?? fallbackMessage(sent, status);
  const options: { -readonly [K in keyof SchemaMismatchErrorOptions]: SchemaMismatchErrorOptions[K] } = {};
  const retryAfter = record['retry_after_ms'];
  if (Number.isSafeInteger(retryAfter) && (retryAfter as number) >= 0)
    options.retryAfterMs = retryAfter as number;
  const altCapabilities = stringArrayOrUndefined(record['alt_capabilities']);
  if (altCapabilities !== undefined) options.altCapabilities = altCapabilities;
  const altNodes = stringArrayOrUndefined(record['alt_nodes']);
  if (altNodes !== undefined) options.altNodes = altNodes;
  const expected = stringOrUndefined(record['schema_hash_expected']);
  if (expected !== undefined) options.schemaHashExpected = expected;
  if (sent !== undefined && sent !== code) options.remoteCode = sent;
  return createHearthNetError(code, message, options);
}

/**
 * The local errors a server answers with a §9 code and their own message: the blob store's refusals of
 * a malformed argument or manifest (`bad_request`) and a corrupt stored chunk (`internal_error`).
 */
const answeredLocalCodes: { readonly [C in HearthNetLocalErrorCode]?: HearthNetErrorCode } = {
  invalid_blob_store_input: 'bad_request',
  chunk_mismatch: 'bad_request',
  invalid_blob_manifest: 'bad_request',
  missing_chunks: 'bad_request',
  corrupt_chunk: 'internal_error',
};

/**
 * Any thrown value as a HearthNet error, for a server to answer with: a {@link HearthNetError} as it
 * is; a `HearthNetLocalError` `schema_validation` of a request, or of a blob store argument or manifest,
 * as `bad_request`, and a `corrupt_chunk` as `internal_error`, each with its message (the local error
 * stays as `cause`); anything else as `internal_error` whose message does not leak the original (it
 * stays as `cause`).
 */
export function asHearthNetError(error: unknown): HearthNetError {
  if (error instanceof HearthNetErrorClass) return error;
  if (error instanceof HearthNetLocalError) {
    const code =
      error.code === 'schema_validation'
        ? error.details?.part === 'request'
          ? 'bad_request'
          : undefined
        : answeredLocalCodes[error.code];
    if (code !== undefined) return createHearthNetError(code, error.message, { cause: error });
  }
  return createHearthNetError('internal_error', undefined, { cause: error });
}

function fallbackMessage(sent: string | undefined, status: number | undefined): string | undefined {
  if (sent !== undefined) return sent;
  return status === undefined ? undefined : `HTTP ${status} without a HearthNet error body`;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function stringArrayOrUndefined(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}
