import { z } from 'zod';
import { formatJsonPath } from '../canonical-json/json-path.js';
import { parseCapabilityName } from '../capabilities/capability-name.js';
import { parseCapabilityVersion } from '../capabilities/capability-version.js';
import { HearthNetLocalError } from '../errors.js';
import type { SignedEvent } from '../events/envelope.js';
import type { EventType } from '../events/event-types.js';
import { validateEvent } from '../events/verify-event.js';
import { jsonObjectSchema, signedNodeManifestSchema, timestampSchema } from '../manifests/index.js';

/**
 * What a topic carries (contract §8 "Payload"): a signed event envelope of §7.1, a signed node
 * manifest of §6.1, a capability descriptor, a capability's `{name, version}`, or the emergency-mode
 * state `{online, since}`.
 */
export type TopicPayloadKind =
  | 'event_envelope'
  | 'node_manifest'
  | 'capability_descriptor'
  | 'capability_ref'
  | 'connectivity';

/** The payload of `capability.deregistered`: which capability left the local bus. */
export interface CapabilityRefPayload {
  readonly name: string;
  readonly version: string;
}

/** The payload of `emergency.mode.changed`: whether the node is online, since when (RFC 3339 UTC). */
export interface ConnectivityPayload {
  readonly online: boolean;
  readonly since: string;
}

const capabilityNameSchema = z.string().refine(succeeds(parseCapabilityName), {
  message: 'expected a capability name such as llm.chat',
});
const capabilityVersionSchema = z.string().refine(succeeds(parseCapabilityVersion), {
  message: 'expected a capability version major.minor',
});

/** `{name, version}` of a capability (the `capability.deregistered` payload). */
export const capabilityRefPayloadSchema = z.strictObject({
  name: capabilityNameSchema,
  version: capabilityVersionSchema,
});

/** `{online, since}` (the `emergency.mode.changed` payload). */
export const connectivityPayloadSchema = z.strictObject({ online: z.boolean(), since: timestampSchema });

/** A `CapabilityDescriptor` as data (the `capability.registered` payload); the three schemas stay opaque JSON objects. */
export const capabilityDescriptorPayloadSchema = z.strictObject({
  name: capabilityNameSchema,
  version: capabilityVersionSchema,
  stability: z.enum(['stable', 'beta', 'unstable']),
  trust: z.strictObject({
    level: z.enum(['member', 'trusted']),
    condition: z.enum(['own_resource', 'self_only', 'can_invite', 'three_trusted_co_signers']).optional(),
  }),
  idempotency: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('none') }),
    z.strictObject({ kind: z.literal('idempotent') }),
    z.strictObject({ kind: z.literal('by_key'), key: z.string().min(1) }),
  ]),
  streaming: z.enum(['none', 'server', 'bidirectional']),
  requestSchema: jsonObjectSchema,
  responseSchema: jsonObjectSchema.nullable(),
  streamSchema: jsonObjectSchema.nullable(),
});

/**
 * A signed event envelope (contract §7.1) whose `event_type` is one of `types`: its shape and `data`
 * are checked as `validateEvent` checks them (the signature is not: see `verifyEvent`).
 */
export function eventEnvelopePayloadSchema(types: readonly EventType[]): z.ZodType<SignedEvent> {
  return z.unknown().transform((value, context) => {
    const verdict = validateEvent(value);
    if (!verdict.valid) {
      context.addIssue({ code: 'custom', message: `${verdict.message} (at ${verdict.path})` });
      return z.NEVER;
    }
    if (!types.includes(verdict.event.event_type)) {
      context.addIssue({
        code: 'custom',
        path: ['event_type'],
        message: `expected an event of type ${types.join(' or ')}, got ${verdict.event.event_type}`,
      });
      return z.NEVER;
    }
    return verdict.event;
  });
}

/** The validator of each payload kind but `event_envelope` (whose validator depends on the topic's event types). */
export const payloadSchemas = {
  node_manifest: signedNodeManifestSchema,
  capability_descriptor: capabilityDescriptorPayloadSchema,
  capability_ref: capabilityRefPayloadSchema,
  connectivity: connectivityPayloadSchema,
} as const;

/**
 * Parses `payload` with `schema`; throws {@link HearthNetLocalError} `invalid_topic_payload` with the first
 * issue's JSON path otherwise.
 */
export function parseTopicPayload<T>(topic: string, schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = formatJsonPath(
    (issue?.path ?? []).filter((segment): segment is string | number => typeof segment !== 'symbol'),
  );
  throw new HearthNetLocalError(
    'invalid_topic_payload',
    `${topic}: ${path}: ${issue?.message ?? 'invalid payload'}`,
    {
      path,
      details: { topic },
    },
  );
}

function succeeds(parse: (text: string) => unknown): (text: string) => boolean {
  return (text) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };
}
