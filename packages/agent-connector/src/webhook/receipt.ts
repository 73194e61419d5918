import type { DeliveryReceipt } from '../contract/delivery-receipt.js';

/**
 * Turns a webhook receiver's response body (read as text) into a {@link DeliveryReceipt}, tolerating any
 * shape, as the reference connector does:
 * - empty or non-JSON text counts as `{}`; JSON that is not an object (a number, a string, `null`) gives
 *   `{ delivered_at: now }`; arrays count as objects without fields;
 * - `delivered_at`: the body's, when it is a finite non-negative number, else `now` (the reference keeps
 *   any number; negatives and `1e400` would break the receipt contract);
 * - `delivery_id`: the first of `delivery_id`, `id`, `ts` that is neither `null` nor absent, kept only if it
 *   is a string (`{ delivery_id: 7, id: 'B' }` gives none);
 * - `delivery_skipped`: only for a literal `true`;
 * - `session_id` (a non-empty string) and `warnings` (an array of strings) are kept — the reference drops
 *   them; the contract asks for them.
 *
 * @example
 * synthesizeDeliveryReceipt('{"id":"m-1","session_id":"tab-3"}', 1767225600000);
 * // { delivered_at: 1767225600000, delivery_id: 'm-1', session_id: 'tab-3' }
 */
export function synthesizeDeliveryReceipt(body_text: string, now: number): DeliveryReceipt {
  const body = parseBody(body_text);
  if (body === null || typeof body !== 'object') return { delivered_at: now };
  const fields = body as Record<string, unknown>;
  const delivered_at = fields.delivered_at;
  const delivery_id = fields.delivery_id ?? fields.id ?? fields.ts;
  const { session_id, warnings } = fields;
  return {
    delivered_at: isTimestamp(delivered_at) ? delivered_at : now,
    ...(typeof delivery_id === 'string' ? { delivery_id } : {}),
    ...(typeof session_id === 'string' && session_id !== '' ? { session_id } : {}),
    ...(fields.delivery_skipped === true ? { delivery_skipped: true } : {}),
    ...(isStringArray(warnings) ? { warnings: [...warnings] } : {}),
  };
}

function parseBody(text: string): unknown {
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function isTimestamp(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
