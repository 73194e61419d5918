import type * as z from 'zod/mini';
import { readBearerToken } from '../../auth/index.js';
import { RelayError } from '../../errors.js';
import { safeParseInEnglish } from '../../internal/english-issues.js';
import { readBodyWithLimit } from '../http/limited-body.js';
import { edgeMethodNotAllowed } from '../http/refusals.js';
import { enrollmentBodyRefused } from './refusals.js';

/**
 * @throws {RelayError} `edge_http_method_not_allowed`: the request is not a POST (405 with `Allow: POST`).
 */
export function assertPost(request: Request): void {
  if (request.method !== 'POST') throw edgeMethodNotAllowed(request.method, ['POST']);
}

/** The bearer token of the request, or `undefined` when there is none or the header is not a bearer. */
export function requestBearerToken(request: Request): string | undefined {
  try {
    return readBearerToken(request.headers.get('authorization'));
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed') return undefined;
    throw error;
  }
}

/**
 * Reads the body as UTF-8 JSON of at most `maxBytes` bytes and checks it against `schema`.
 *
 * @throws {RelayError} `edge_http_payload_too_large`: the body is larger than `maxBytes` (413).
 * @throws {RelayError} `enrollment_invalid_body`: not UTF-8 JSON, or not of the schema's shape (400).
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
    throw enrollmentBodyRefused('invalid_json', 'the body is not UTF-8 JSON');
  }
  const parsed = safeParseInEnglish(schema, value);
  if (parsed.success) return parsed.data;
  // zod's messages say what is wrong, never what was sent.
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? 'body' : `body.${issue.path.join('.')}`;
  throw enrollmentBodyRefused('invalid_body', `${path}: ${issue?.message ?? 'is not valid'}`, path);
}
