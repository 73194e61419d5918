import { HearthNetLocalError } from '../errors.js';
import { parseTimestamp } from '../manifests/timestamps.js';

/** The reference's `issued_at`: `%Y-%m-%dT%H:%M:%S.%fZ` (read with 0–6 fraction digits). */
const REFERENCE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/;

/**
 * A reference timestamp (`2026-05-26T08:14:22.281734Z`, microseconds) as a contract timestamp:
 * cut to milliseconds, trailing zeros and an empty fraction dropped (`…22.281Z`, `…22.28Z`, `…22Z`).
 * The microseconds beyond the millisecond are lost.
 *
 * @throws {HearthNetLocalError} `invalid_reference_timestamp` for text of another shape or an impossible
 *   date.
 * @example
 * referenceTimestampToContract('2026-05-26T08:14:22.281734Z'); // '2026-05-26T08:14:22.281Z'
 */
export function referenceTimestampToContract(text: string): string {
  const match = typeof text === 'string' ? REFERENCE_TIMESTAMP.exec(text) : null;
  if (match === null) {
    throw new HearthNetLocalError(
      'invalid_reference_timestamp',
      'expected a reference timestamp such as 2026-05-26T08:14:22.281734Z',
      { details: { value: text } },
    );
  }
  const millis = (match[2] ?? '').padEnd(6, '0').slice(0, 3).replace(/0+$/, '');
  const contract = `${match[1]}${millis === '' ? '' : `.${millis}`}Z`;
  try {
    parseTimestamp(contract);
  } catch (error) {
    throw new HearthNetLocalError('invalid_reference_timestamp', `${text} is not a real UTC time`, {
      cause: error,
      details: { value: text },
    });
  }
  return contract;
}

/**
 * A contract timestamp as the reference writes it: microseconds, six fraction digits
 * (`2026-05-26T08:14:22Z` → `2026-05-26T08:14:22.000000Z`).
 *
 * @throws {HearthNetLocalError} `invalid_timestamp` for text that is not a contract timestamp.
 */
export function contractTimestampToReference(text: string): string {
  const iso = new Date(parseTimestamp(text)).toISOString();
  return `${iso.slice(0, 23)}000Z`;
}
