import { HearthNetLocalError } from '../errors.js';

/**
 * The `invalid_timestamp` error: a value that is not a contract timestamp (RFC 3339 UTC with `Z`,
 * contract §1.1), or a time that cannot be one. The message ends with the value received.
 */
export function invalidTimestamp(value: unknown, message: string): HearthNetLocalError {
  return new HearthNetLocalError('invalid_timestamp', `${message}, got ${describe(value)}`, {
    details: { value },
  });
}

function describe(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
    : String(value);
}
