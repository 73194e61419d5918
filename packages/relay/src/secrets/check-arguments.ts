import { describeKeyString, isKeyString } from '../buffer/key-string.js';
import { RelayError } from '../errors.js';
import type { RotateGatewaySecretOptions } from './gateway-secret-store.js';

/**
 * Checks a gateway id or tenant: a non-empty, well-formed string. For store implementations, which
 * call it before touching their backend.
 *
 * @throws {RelayError} `invalid_gateway_secret_argument`, with `path`.
 */
export function checkGatewayKey(value: unknown, path: 'gatewayId' | 'tenant'): string {
  if (isKeyString(value)) return value;
  throw new RelayError(
    'invalid_gateway_secret_argument',
    `${path} must be a non-empty, well-formed string, got ${describeKeyString(value)}`,
    { path },
  );
}

/**
 * Checks the options of `rotate` and returns the grace window in milliseconds: a finite number ≥ 0.
 *
 * @throws {RelayError} `invalid_gateway_secret_argument`, path `options` or `options.graceMs`.
 */
export function checkRotateOptions(options: unknown): number {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('invalid_gateway_secret_argument', 'options must be an object with graceMs', {
      path: 'options',
    });
  }
  const { graceMs } = options as Partial<RotateGatewaySecretOptions>;
  if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) {
    throw new RelayError(
      'invalid_gateway_secret_argument',
      `options.graceMs must be a finite number of milliseconds ≥ 0, got ${typeof graceMs === 'number' ? String(graceMs) : typeof graceMs}`,
      { path: 'options.graceMs' },
    );
  }
  return graceMs;
}

/**
 * Checks a clock option: a function, or `undefined` for `Date.now`.
 *
 * @throws {RelayError} `invalid_gateway_secret_argument`, path `options.now`.
 */
export function checkSecretStoreClock(now: unknown): () => number {
  if (now === undefined) return Date.now;
  if (typeof now === 'function') return now as () => number;
  throw new RelayError('invalid_gateway_secret_argument', 'options.now must be a function', {
    path: 'options.now',
  });
}
