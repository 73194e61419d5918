import { z } from 'zod';
import { parseContractValue } from './validate.js';

/**
 * The trigger kinds the contract declares. The reference runtime emits only `cron`, `event` and `inline`
 * (its default); the others are declared for adopters' runtimes.
 */
export type KnownTriggerKind = 'cron' | 'event' | 'webhook' | 'agent' | 'cli' | 'dashboard' | 'inline';

/**
 * How the skill that emitted a delivery was fired: one of the {@link KnownTriggerKind}s, or any other
 * string. The reference runtime copies its trigger source into `origin.trigger_kind` without checking it,
 * so unknown values reach connectors (`session`, removed from the contract in reference v0.19.0 but still
 * sent by older runtimes, or an adopter's own trigger source); they pass through untouched, like the
 * empty string. Editors still offer the known values.
 */
export type TriggerKind = KnownTriggerKind | (string & {});

/** Every {@link KnownTriggerKind}, in contract order. */
export const TRIGGER_KINDS: readonly KnownTriggerKind[] = [
  'cron',
  'event',
  'webhook',
  'agent',
  'cli',
  'dashboard',
  'inline',
];

/**
 * Whether `value` is one of the contract's {@link KnownTriggerKind}s, for receivers that route on it.
 *
 * @example
 * if (isKnownTriggerKind(meta.origin.trigger_kind)) route(meta.origin.trigger_kind);
 * else log(`unknown trigger kind ${meta.origin.trigger_kind}`);
 */
export function isKnownTriggerKind(value: unknown): value is KnownTriggerKind {
  return (TRIGGER_KINDS as readonly unknown[]).includes(value);
}

/** Who emitted a delivery. Optional fields are absent when unknown, never `null`. */
export interface DeliveryOrigin {
  /** The immediate emitter: the skill that called `notify()` or fired `# Output:`. */
  readonly skill_name: string;
  /**
   * The root entry-point skill, present only when it differs from `skill_name` (A inlines B, B emits →
   * `skill_name: B`, `entry_skill_name: A`). Intermediate steps of a deeper chain are not recorded.
   */
  readonly entry_skill_name?: string;
  /** How the skill was fired; any string, see {@link TriggerKind}. */
  readonly trigger_kind: TriggerKind;
  /**
   * The authenticated caller who fired the dispatch (e.g. from an `X-Agent-Id` header), kept across
   * composition. Absent for cron / event / cli / dashboard / inline triggers and for unauthenticated
   * calls; the skill's owner is never used in its place.
   */
  readonly caller_agent_id?: string;
}

/**
 * The envelope the runtime attaches to every `deliver()`. Connectors consume it and never construct it
 * (the runtime side builds it with `createDeliveryMeta`). Times are unix milliseconds; optional fields are
 * absent, never `null`.
 */
export interface DeliveryMeta {
  /**
   * One id per emit event: every connector reached by one `notify()` shares it, sequential emits get
   * distinct ids. Receivers dedupe substrate retries on it. Opaque: not necessarily a UUID.
   */
  readonly dispatch_id: string;
  /** When the runtime emitted (unix ms) — not when the substrate accepted; compare with `delivered_at`. */
  readonly sent_at: number;
  readonly origin: DeliveryOrigin;
  /** Adopter-defined routing vocabulary, opaque to the runtime (`notify(event_type=…)` over `# Event-type:`). */
  readonly event_type?: string;
  /** Reply correlation for `request_response()`; the receiver echoes it on its reply. */
  readonly correlation_id?: string;
}

/**
 * Zod schema of {@link DeliveryOrigin}; unknown keys are kept (later minors may add fields) and
 * `trigger_kind` may be any string, as the reference runtime sends it.
 */
export const deliveryOriginSchema: z.ZodType<DeliveryOrigin> = z.looseObject({
  skill_name: z.string(),
  entry_skill_name: z.string().exactOptional(),
  trigger_kind: z.string(),
  caller_agent_id: z.string().exactOptional(),
});

/** Zod schema of {@link DeliveryMeta}, fields in the order the reference runtime writes them. */
export const deliveryMetaSchema: z.ZodType<DeliveryMeta> = z.looseObject({
  dispatch_id: z.string().min(1),
  sent_at: z.number().nonnegative(),
  origin: deliveryOriginSchema,
  event_type: z.string().exactOptional(),
  correlation_id: z.string().exactOptional(),
});

/**
 * Validates a {@link DeliveryMeta} a connector received. Properties set to `undefined` count as absent;
 * unknown keys are kept; the result is a new object in contract field order.
 *
 * `origin.trigger_kind` may be any string: unknown kinds pass through (see {@link TriggerKind}).
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing or mistyped field (a non-string
 *   `trigger_kind` too), `null` in an optional field, an empty `dispatch_id`, or a negative or non-finite
 *   `sent_at`.
 */
export function parseDeliveryMeta(value: unknown): DeliveryMeta {
  return parseContractValue(deliveryMetaSchema, 'DeliveryMeta', value);
}
