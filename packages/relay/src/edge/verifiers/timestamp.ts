import { RelayError } from '../../errors.js';

const UNIX_SECONDS = /^[0-9]{1,15}$/;

/**
 * The unix seconds a signed timestamp text names, once checked to be within `maxSkew` seconds of
 * `now` either way (the bounds included). Throws `malformed_timestamp` for anything but
 * 1 to 15 decimal digits and `stale_timestamp` outside the window.
 */
export function freshTimestamp(text: string, now: number, maxSkew: number, path: string): number {
  if (!UNIX_SECONDS.test(text)) {
    throw new RelayError('malformed_timestamp', `${path} must be unix seconds in decimal digits`, { path });
  }
  const timestamp = Number(text);
  if (Math.abs(now - timestamp) > maxSkew) {
    throw new RelayError(
      'stale_timestamp',
      `${path} ${timestamp} is more than ${maxSkew} s away from the clock (${now})`,
      { path },
    );
  }
  return timestamp;
}
