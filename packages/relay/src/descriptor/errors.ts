import type { RelayErrorCode } from '../errors.js';

/**
 * The `RelayError` codes `parseDescriptor`, `parseDescriptorValue` and `createDescriptor` throw:
 * - `descriptor_invalid_json`: the text is not JSON that Python's `json.loads` reads;
 * - `descriptor_not_object`: valid JSON but not an object (the gateway fails with `AttributeError`);
 * - `descriptor_missing_fields`: required fields are absent, `details.missing` (the gateway fails with
 *   `TypeError` and its read loop ends);
 * - `descriptor_max_message_length_overflow`: `max_message_length` is an infinite number (Python's
 *   `int()` raises `OverflowError`, uncaught);
 * - `descriptor_not_json`: a value JSON cannot carry (a function, `undefined` in an array, a bigint, a
 *   class instance, a cycle);
 * - `descriptor_invalid_field`: `createDescriptor` refused a field the gateway would misread or choke on.
 */
export const DESCRIPTOR_ERROR_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'descriptor_invalid_json',
  'descriptor_not_object',
  'descriptor_missing_fields',
  'descriptor_max_message_length_overflow',
  'descriptor_not_json',
  'descriptor_invalid_field',
]);
