import { RelayError } from '../../errors.js';

/** Options of {@link jsonResponse}. */
export interface JsonResponseInit {
  /** More headers; they may not override `Content-Type`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A JSON response: `body` serialised with `JSON.stringify`, `Content-Type: application/json;
 * charset=utf-8`, `Cache-Control: no-store` (edge answers carry credentials and per-gateway data) and
 * `X-Content-Type-Options: nosniff`.
 *
 * @throws {RelayError} `edge_http_invalid_argument`: `status` is not an integer in 200–599, or `body` has no
 *   JSON form.
 *
 * @example
 * return jsonResponse(200, { id, size });
 */
export function jsonResponse(status: number, body: unknown, init: JsonResponseInit = {}): Response {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `status must be an integer in 200–599, got ${String(status)}`,
      { path: 'status' },
    );
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `body cannot be serialised: ${error instanceof Error ? error.message : String(error)}`,
      { path: 'body', cause: error },
    );
  }
  if (text === undefined)
    throw new RelayError('edge_http_invalid_argument', `body has no JSON form (${typeof body})`, {
      path: 'body',
    });
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return new Response(text, { status, headers });
}
