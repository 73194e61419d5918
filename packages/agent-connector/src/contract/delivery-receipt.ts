import { z } from 'zod';
import { parseContractValue } from './validate.js';

/**
 * What a connector returns from a successful `deliver()`. Times are unix milliseconds; optional fields are
 * absent, never `null`. A failed delivery throws instead.
 */
export interface DeliveryReceipt {
  /** When the substrate accepted the delivery (unix ms); `delivered_at - meta.sent_at` is the queue lag. */
  readonly delivered_at: number;
  /** The substrate's own id for the delivery, for later correlation. */
  readonly delivery_id?: string;
  /**
   * The session that received the delivery. Absent when the substrate is agent-level only (e-mail, Slack
   * DM) or accepted without committing to a session (fan-out).
   */
  readonly session_id?: string;
  /** `true`: accepted but not pushed to the agent (offline, rate-limit drop …) — not a failure. */
  readonly delivery_skipped?: boolean;
  /** Advisory notes about a delivery that succeeded (`"fan-out: delivered to 3 active sessions"`). */
  readonly warnings?: readonly string[];
}

/** Zod schema of {@link DeliveryReceipt}; unknown keys are kept. */
export const deliveryReceiptSchema: z.ZodType<DeliveryReceipt> = z.looseObject({
  delivered_at: z.number().nonnegative(),
  delivery_id: z.string().exactOptional(),
  session_id: z.string().exactOptional(),
  delivery_skipped: z.boolean().exactOptional(),
  warnings: z.array(z.string()).exactOptional(),
});

/**
 * Validates the {@link DeliveryReceipt} a connector returned (what a runtime or conformance suite must do
 * before recording it). Properties set to `undefined` count as absent; unknown keys are kept.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a non-object, a missing / negative / non-finite
 *   `delivered_at`, a mistyped optional field or `null` in one.
 * @example
 * const receipt = parseDeliveryReceipt(await connector.deliver('alice', payload));
 * if (receipt.delivery_skipped === true) console.warn('accepted but not pushed');
 */
export function parseDeliveryReceipt(value: unknown): DeliveryReceipt {
  return parseContractValue(deliveryReceiptSchema, 'DeliveryReceipt', value);
}
