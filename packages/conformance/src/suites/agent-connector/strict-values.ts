import {
  type DeliveryReceipt,
  parseDeliveryReceipt,
  parseWakeReceipt,
  type WakeReceipt,
} from '@agentwire/agent-connector';
import { assertTrue, fail } from '../../assert.js';
import { formatValue } from '../../format-value.js';

/**
 * Calls a connector method and fails the case when it throws: names `what` was called and keeps the error
 * as the cause.
 */
export async function mustResolve<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = error instanceof Error ? `${error.name}: ${error.message}` : formatValue(error);
    return fail(`${what} threw ${name}`, error);
  }
}

/** Fails unless `value` is a finite, non-negative number of milliseconds. */
export function assertMsTime(value: unknown, field: string): void {
  assertTrue(
    typeof value === 'number' && Number.isFinite(value) && value >= 0,
    `${field} must be a finite unix-ms number, got ${formatValue(value)}`,
  );
}

/** Fails when an own property of `value` is `null` or `undefined`: optional fields are absent instead. */
export function assertNoEmptyFields(value: unknown, what: string): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, field] of Object.entries(value)) {
    if (field === null || field === undefined) {
      fail(`${what}.${key} is ${formatValue(field)}; an optional field must be absent instead`);
    }
  }
}

/** Validates a delivery receipt as `parseDeliveryReceipt` does, and more strictly (no empty fields). */
export function assertDeliveryReceipt(value: unknown): DeliveryReceipt {
  assertNoEmptyFields(value, 'DeliveryReceipt');
  assertMsTime((value as { readonly delivered_at?: unknown } | null)?.delivered_at, 'delivered_at');
  try {
    return parseDeliveryReceipt(value);
  } catch (error) {
    return fail(`parseDeliveryReceipt refused ${formatValue(value)}`, error);
  }
}

/** Validates a wake receipt as `parseWakeReceipt` does, and more strictly (`woken` a boolean, no empty fields). */
export function assertWakeReceipt(value: unknown): WakeReceipt {
  const woken = (value as { readonly woken?: unknown } | null)?.woken;
  assertTrue(typeof woken === 'boolean', `woken must be a boolean, got ${formatValue(woken)}`);
  assertNoEmptyFields(value, 'WakeReceipt');
  assertMsTime((value as { readonly woken_at?: unknown }).woken_at, 'woken_at');
  try {
    return parseWakeReceipt(value);
  } catch (error) {
    return fail(`parseWakeReceipt refused ${formatValue(value)}`, error);
  }
}
