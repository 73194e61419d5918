import { describeKeyString, isKeyString } from '../buffer/key-string.js';
import { InvalidGatewaySecretArgumentError } from './errors.js';
import type { RotateGatewaySecretOptions } from './gateway-secret-store.js';

/**
 * Checks a gateway id or tenant: a non-empty, well-formed string. For store implementations, which
 * call it before touching their backend.
 *
 * @throws {InvalidGatewaySecretArgumentError} `invalid_gateway_secret_argument`, with `path`.
 */
export function checkGatewayKey(value: unknown, path: 'gatewayId' | 'tenant'): string {
  if (isKeyString(value)) return value;
  throw new InvalidGatewaySecretArgumentError(
    `${path} must be a non-empty, well-formed string, got ${describeKeyString(value)}`,
    path,
  );
}

/**
 * Checks the options of `rotate` and returns the grace window in milliseconds: a finite number ≥ 0.
 *
 * @throws {InvalidGatewaySecretArgumentError} `invalid_gateway_secret_argument`, path `options` or `options.graceMs`.
 */
export function checkRotateOptions(options: unknown): number {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidGatewaySecretArgumentError('options must be an object with graceMs', 'options');
  }
  const { graceMs } = options as Partial<RotateGatewaySecretOptions>;
  if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) {
    throw new InvalidGatewaySecretArgumentError(
      `options.graceMs must be a finite number of milliseconds ≥ 0, got ${typeof graceMs === 'number' ? String(graceMs) : typeof graceMs}`,
      'options.graceMs',
    );
  }
  return graceMs;
}

/**
 * Checks a clock option: a function, or `undefined` for `Date.now`.
 *
 * @throws {InvalidGatewaySecretArgumentError} `invalid_gateway_secret_argument`, path `options.now`.
 */
export function checkSecretStoreClock(now: unknown): () => number {
  if (now === undefined) return Date.now;
  if (typeof now === 'function') return now as () => number;
  throw new InvalidGatewaySecretArgumentError('options.now must be a function', 'options.now');
}
