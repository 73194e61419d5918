import type * as z from 'zod/mini';
import { MalformedRelayTokenError, readBearerToken } from '../../auth/index.js';
import { safeParseInEnglish } from '../../internal/english-issues.js';
import { EdgeMethodNotAllowedError } from '../http/errors.js';
import { readBodyWithLimit } from '../http/limited-body.js';
import { EnrollmentRequestBodyError } from './http-errors.js';

/** @throws {EdgeMethodNotAllowedError} the request is not a POST (405 with `Allow: POST`). */
export function assertPost(request: Request): void {
  if (request.method !== 'POST') throw new EdgeMethodNotAllowedError(request.method, ['POST']);
}

/** The bearer token of the request, or `undefined` when there is none or the header is not a bearer. */
export function requestBearerToken(request: Request): string | undefined {
  try {
    return readBearerToken(request.headers.get('authorization'));
  } catch (error) {
    if (error instanceof MalformedRelayTokenError) return undefined;
    throw error;
  }
}

/**
 * Reads the body as UTF-8 JSON of at most `maxBytes` bytes and checks it against `schema`.
 *
 * @throws {EdgePayloadTooLargeError} the body is larger than `maxBytes` (413).
 * @throws {EnrollmentRequestBodyError} not UTF-8 JSON, or not of the schema's shape (400).
 */
export async function readJsonBody<T>(
  request: Request,
  schema: z.ZodMiniType<T>,
  maxBytes: number,
): Promise<T> {
  const bytes = await readBodyWithLimit(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new EnrollmentRequestBodyError('invalid_json', 'the body is not UTF-8 JSON');
  }
  const parsed = safeParseInEnglish(schema, value);
  if (parsed.success) return parsed.data;
  // zod's messages say what is wrong, never what was sent.
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? 'body' : `body.${issue.path.join('.')}`;
  throw new EnrollmentRequestBodyError('invalid_body', `${path}: ${issue?.message ?? 'is not valid'}`, path);
}
