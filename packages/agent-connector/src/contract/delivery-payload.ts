import { z } from 'zod';
import { type DeliveryMeta, deliveryMetaSchema } from './delivery-meta.js';
import { parseContractValue } from './validate.js';

/** `augment`: context to absorb. `template`: a playbook to execute. A closed set in contract v1.0. */
export type DeliveryKind = 'augment' | 'template';

/** Every {@link DeliveryKind}. */
export const DELIVERY_KINDS: readonly DeliveryKind[] = ['augment', 'template'];

/** Context for the agent to absorb (`notify()`, `# Output: agent:`). */
export interface AugmentPayload {
  readonly kind: 'augment';
  readonly content: string;
  readonly meta: DeliveryMeta;
}

/** A playbook for the agent to execute (`# Output: template:`). */
export interface TemplatePayload {
  readonly kind: 'template';
  readonly prompt: string;
  readonly meta: DeliveryMeta;
}

/**
 * What `deliver()` hands a connector, discriminated on `kind`. A connector whose substrate cannot carry a
 * kind (including one a later minor adds) throws from `deliver()`.
 */
export type DeliveryPayload = AugmentPayload | TemplatePayload;

/** Zod schema of {@link DeliveryPayload}; an unknown `kind` is refused, unknown keys are kept. */
export const deliveryPayloadSchema: z.ZodType<DeliveryPayload> = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('augment'), content: z.string(), meta: deliveryMetaSchema }),
  z.looseObject({ kind: z.literal('template'), prompt: z.string(), meta: deliveryMetaSchema }),
]);

/**
 * Validates a {@link DeliveryPayload} handed to `deliver()` or `request_response()`.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: an unknown `kind`, a missing `content` / `prompt`,
 *   or an invalid `meta`.
 * @example
 * async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
 *   const { kind, meta } = parseDeliveryPayload(payload);
 *   …
 * }
 */
export function parseDeliveryPayload(value: unknown): DeliveryPayload {
  return parseContractValue(deliveryPayloadSchema, 'DeliveryPayload', value);
}

/** The text a payload carries: `content` of an augment, `prompt` of a template. */
export function payloadText(payload: DeliveryPayload): string {
  return payload.kind === 'augment' ? payload.content : payload.prompt;
}
