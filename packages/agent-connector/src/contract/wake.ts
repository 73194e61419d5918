import { z } from 'zod';
import { parseContractValue } from './validate.js';

/** Options of `wake()`; every field is optional. */
export interface WakeOpts {
  /** Preamble for the wake message; address-routed dispatch puts the message text here. */
  readonly context?: string;
  /** `'immediate'` (the default) or a unix-ms time for a scheduled wake. */
  readonly when?: 'immediate' | number;
  /**
   * Structured session targeting, the alternative to an `agent@session` address; when both are given,
   * this one wins (see `resolveSessionId`).
   */
  readonly session_id?: string;
}

/**
 * What `wake()` returns. A substrate that cannot interrupt degrades — delivers the content and returns
 * `woken: false` — instead of throwing; only operational faults throw.
 */
export interface WakeReceipt {
  /** When the substrate acknowledged the wake (unix ms). */
  readonly woken_at: number;
  /** `true` only when the substrate really interrupted the agent; `false` when it degraded to delivery. */
  readonly woken: boolean;
  /** The session that received the wake (or the degraded delivery), when the substrate knows it. */
  readonly session_id?: string;
  /** Advisory notes about the wake (`"stripped @session suffix — deliver is mailbox-class"`). */
  readonly warnings?: readonly string[];
}

/** Zod schema of {@link WakeOpts}; unknown keys are kept. */
export const wakeOptsSchema: z.ZodType<WakeOpts> = z.looseObject({
  context: z.string().exactOptional(),
  when: z.union([z.literal('immediate'), z.number().nonnegative()]).exactOptional(),
  session_id: z.string().exactOptional(),
});

/** Zod schema of {@link WakeReceipt}; `woken` is required, unknown keys are kept. */
export const wakeReceiptSchema: z.ZodType<WakeReceipt> = z.looseObject({
  woken_at: z.number().nonnegative(),
  woken: z.boolean(),
  session_id: z.string().exactOptional(),
  warnings: z.array(z.string()).exactOptional(),
});

/**
 * Validates the {@link WakeOpts} handed to `wake()`; `undefined` (no options) gives `{}`.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a mistyped field, `null` in one, or a `when` that
 *   is neither `'immediate'` nor a non-negative number.
 */
export function parseWakeOpts(value: unknown): WakeOpts {
  return parseContractValue(wakeOptsSchema, 'WakeOpts', value ?? {});
}

/**
 * Validates the {@link WakeReceipt} a connector returned.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing or non-boolean `woken` (the reference
 *   suite never checked it), a missing / negative / non-finite `woken_at`, a mistyped optional field or
 *   `null` in one.
 * @example
 * const { woken } = parseWakeReceipt(await connector.wake('perry@kitchen', { context: 'build failed' }));
 */
export function parseWakeReceipt(value: unknown): WakeReceipt {
  return parseContractValue(wakeReceiptSchema, 'WakeReceipt', value);
}
