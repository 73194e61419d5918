import { RelayError } from '../../errors.js';
import { describe } from './arguments.js';

/**
 * An inbound webhook request exactly as it reached the edge. `url` is the absolute URL the provider
 * called, as the provider wrote it (scheme, public host, path and raw query string — behind a
 * proxy, rebuild the public URL, not the internal one); `body` holds the raw bytes, unparsed.
 */
export interface EdgeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/**
 * Checks the shape of `request` and returns its parsed URL. Throws `invalid_argument`
 * for a request that is not an {@link EdgeRequest} or whose `url` is not absolute.
 */
export function parseEdgeRequest(request: unknown): URL {
  if (typeof request !== 'object' || request === null) {
    throw new RelayError('invalid_argument', `request must be an object, got ${describe(request)}`, {
      path: 'request',
    });
  }
  const { method, url, headers, body } = request as Partial<Record<keyof EdgeRequest, unknown>>;
  if (typeof method !== 'string' || method === '') {
    throw new RelayError('invalid_argument', 'request.method must be a non-empty string', {
      path: 'request.method',
    });
  }
  if (!(headers instanceof Headers)) {
    throw new RelayError(
      'invalid_argument',
      `request.headers must be a Headers instance, got ${describe(headers)}`,
      { path: 'request.headers' },
    );
  }
  if (!(body instanceof Uint8Array)) {
    throw new RelayError('invalid_argument', `request.body must be a Uint8Array, got ${describe(body)}`, {
      path: 'request.body',
    });
  }
  if (typeof url !== 'string') {
    throw new RelayError('invalid_argument', `request.url must be a string, got ${describe(url)}`, {
      path: 'request.url',
    });
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined) {
    throw new RelayError('invalid_argument', 'request.url must be an absolute URL', { path: 'request.url' });
  }
  return parsed;
}

/** The value of a header, or `undefined` when it is absent or empty. */
export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers.get(name);
  return value === null || value === '' ? undefined : value;
}
