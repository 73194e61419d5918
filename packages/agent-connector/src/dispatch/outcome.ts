import type { DeliveryReceipt } from '../contract/delivery-receipt.js';
import type { WakeReceipt } from '../contract/wake.js';

/** Which connector method an address routes to: `wake` when it contains `@`, else `deliver`. */
export type DispatchRoute = 'deliver' | 'wake';

/**
 * The warning the reference runtime puts first in the receipt of a wake that an `# Output:` hook sent
 * (an address with `@` turns the hook's delivery into a wake).
 */
export const HOOK_WAKE_WARNING = "lifecycle-hook routed to wake-class because agent_id contains '@session'";

/** Why a delivery handled by the NoOp fallback is marked skipped: the reference runtime's words. */
export const NOOP_SKIP_REASON =
  "No AgentConnector wired for runtime; NoOpAgentConnector accepted but didn't deliver. Wire an AgentConnector via registry.registerAgentConnector('primary', <YourImpl>) to enable real delivery.";

/** Why a wake handled by the NoOp fallback is marked skipped: the reference runtime's words. */
export const NOOP_WAKE_SKIP_REASON =
  "No AgentConnector wired for runtime; NoOpAgentConnector accepted but didn't wake. Wire an AgentConnector via registry.registerAgentConnector('primary', <YourImpl>) to enable real wake.";

/** A connector accepted a `deliver()`. */
export interface DeliveredOutcome {
  readonly connector: string;
  readonly route: 'deliver';
  readonly ok: true;
  /** The connector's receipt, validated. */
  readonly receipt: DeliveryReceipt;
  /** `true` when the receipt says `delivery_skipped: true` or the NoOp handled it. */
  readonly skipped: boolean;
  /** Set when the NoOp handled it ({@link NOOP_SKIP_REASON}). */
  readonly reason?: string;
}

/** A connector answered a `wake()` (`receipt.woken` says whether it really interrupted). */
export interface WokenOutcome {
  readonly connector: string;
  readonly route: 'wake';
  readonly ok: true;
  /** The connector's receipt, validated. */
  readonly receipt: WakeReceipt;
  /** `true` when the NoOp handled it. */
  readonly skipped: boolean;
  /** Set when the NoOp handled it ({@link NOOP_SKIP_REASON}). */
  readonly reason?: string;
}

/**
 * A connector's `deliver()` / `wake()` threw or rejected, or returned a receipt that is not one (then
 * `error` is an `invalid_contract_value` `AgentConnectorError`).
 */
export interface FailedOutcome {
  readonly connector: string;
  readonly route: DispatchRoute;
  readonly ok: false;
  /** What was thrown. */
  readonly error: unknown;
  /** `error.message`, or the thrown value as text. */
  readonly message: string;
}

/** What happened at one connector that received the dispatch. */
export type DispatchOutcome = DeliveredOutcome | WokenOutcome | FailedOutcome;

/** A connector left out of a fan-out because its `list_agents()` threw or returned an invalid list. */
export interface ListingFailure {
  readonly connector: string;
  readonly error: unknown;
  readonly message: string;
}

/** The result of `dispatch()`: it always resolves, whatever the connectors did. */
export interface DispatchResult {
  /** The address as given. */
  readonly address: string;
  readonly route: DispatchRoute;
  /** One entry per connector that was called, in connector order; empty when none claimed the address. */
  readonly outcomes: readonly DispatchOutcome[];
  /** Connectors skipped because they could not list their agents (the reference skips them silently). */
  readonly listing_failures: readonly ListingFailure[];
}
