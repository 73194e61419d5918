import { z } from 'zod';
import {
  type DeliveryMeta,
  type DeliveryOrigin,
  deliveryMetaSchema,
  type TriggerKind,
} from '../contract/delivery-meta.js';
import { parseContractValue } from '../contract/validate.js';

/**
 * What the runtime knows at an emit, from which {@link createDeliveryMeta} builds the envelope. An input
 * bag: `undefined` counts as absent.
 */
export interface DeliveryMetaInit {
  /** The emitting skill. */
  readonly skill_name: string;
  /**
   * How the skill was fired; default `'inline'`, as in the reference runtime. Any string is kept as given
   * (an unknown kind, even `''`), as the reference runtime passes its trigger source through.
   */
  readonly trigger_kind?: TriggerKind | undefined;
  /** The root entry skill; dropped when equal to `skill_name`. */
  readonly entry_skill_name?: string | undefined;
  /** The authenticated caller, if any — never the skill's owner. */
  readonly caller_agent_id?: string | undefined;
  /** Per-emit event type (`notify(event_type=…)`); wins over `skill_event_type`. */
  readonly event_type?: string | undefined;
  /** Skill-wide event type (`# Event-type:` frontmatter), used when `event_type` is absent. */
  readonly skill_event_type?: string | undefined;
  /** Reply correlation (`notify(correlation_id=…)`); lifecycle hooks never set it. */
  readonly correlation_id?: string | undefined;
}

/** Where {@link createDeliveryMeta} takes time and ids from; inject both for deterministic tests. */
export interface DeliveryMetaSource {
  /** Emit clock, unix ms; default `Date.now`. */
  readonly now?: () => number;
  /** A fresh `dispatch_id` per call; default `crypto.randomUUID()` (lowercase v4 UUID, as the reference). */
  readonly newDispatchId?: () => string;
}

const optionalText = z.string().exactOptional();
const deliveryMetaInitSchema = z.looseObject({
  skill_name: z.string(),
  trigger_kind: optionalText,
  entry_skill_name: optionalText,
  caller_agent_id: optionalText,
  event_type: optionalText,
  skill_event_type: optionalText,
  correlation_id: optionalText,
});

/**
 * Builds the {@link DeliveryMeta} of one emit event: a fresh `dispatch_id` and `sent_at` = now. Call it
 * once per emit (one `notify()`, one `# Output:` declaration) and hand the same object to every
 * connector of a broadcast, so they all share the id; sequential emits call it again and get new ids.
 *
 * Fields come out in the reference runtime's order (`dispatch_id, sent_at, origin{skill_name,
 * entry_skill_name?, trigger_kind, caller_agent_id?}, event_type?, correlation_id?`), optional ones absent
 * rather than `undefined` — this order is what a webhook body and its HMAC cover. The result is frozen,
 * so one connector cannot alter what the next one receives.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: an invalid `init` (`contract_type`
 *   `DeliveryMetaInit`), or a clock / id source that produced an invalid `sent_at` / `dispatch_id`
 *   (`contract_type` `DeliveryMeta`).
 * @example
 * const meta = createDeliveryMeta({ skill_name: 'triage', trigger_kind: 'cron', event_type: 'alert' });
 * // { dispatch_id: '1b4e…', sent_at: 1767225600000, origin: { skill_name: 'triage', trigger_kind: 'cron' },
 * //   event_type: 'alert' }
 */
export function createDeliveryMeta(init: DeliveryMetaInit, source: DeliveryMetaSource = {}): DeliveryMeta {
  const fields = parseContractValue(deliveryMetaInitSchema, 'DeliveryMetaInit', init);
  const now = source.now ?? Date.now;
  const newDispatchId = source.newDispatchId ?? (() => globalThis.crypto.randomUUID());
  const origin: DeliveryOrigin = Object.freeze({
    skill_name: fields.skill_name,
    ...(fields.entry_skill_name !== undefined && fields.entry_skill_name !== fields.skill_name
      ? { entry_skill_name: fields.entry_skill_name }
      : {}),
    trigger_kind: fields.trigger_kind ?? 'inline',
    ...(fields.caller_agent_id !== undefined ? { caller_agent_id: fields.caller_agent_id } : {}),
  });
  const event_type = fields.event_type ?? fields.skill_event_type;
  const meta: DeliveryMeta = {
    dispatch_id: newDispatchId(),
    sent_at: now(),
    origin,
    ...(event_type !== undefined ? { event_type } : {}),
    ...(fields.correlation_id !== undefined ? { correlation_id: fields.correlation_id } : {}),
  };
  parseContractValue(deliveryMetaSchema, 'DeliveryMeta', meta);
  return Object.freeze(meta);
}
