import { isPlainObject } from '@agentwire/internal';
import { z } from 'zod';
import { AgentConnectorError, type ContractValueType } from './errors.js';

/**
 * The AgentConnector v1.0 contract: substrate-neutral delivery of payloads to an agent. The runtime calls
 * it; the adopter implements the substrate (webhook, file drop, tmux, …). Method names are the contract's.
 *
 * `agent_id` is opaque: a bare id (`alice`, an e-mail address) or an `agent@session` composite, passed
 * exactly as the caller wrote it (see `parseAgentAddress`).
 *
 * A connector may also have a `dispose()` method; `AgentConnectorRegistry.disposeAll()` calls it.
 */
export interface AgentConnector {
  /** Every agent this connector can reach; the runtime claims addresses against these ids. */
  list_agents(): Promise<readonly AgentDescriptor[]>;
  /** Delivers a payload; throws (`DeliveryFailedError`) only when delivery failed. */
  deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt>;
  /**
   * Rouses the agent. Never throws because the substrate cannot interrupt: it delivers `opts.context`
   * instead and returns `woken: false`. Throws on misconfiguration and operational faults.
   */
  wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt>;
  /** `true` when the substrate is reachable and configured. */
  health_check(): Promise<boolean>;
  /** Locked for the future `exchange()` op; throw `NotImplementedError` until the runtime supports it. */
  request_response(
    agent_id: string,
    payload: DeliveryPayload,
    opts: RequestResponseOpts,
  ): Promise<AgentResponse>;
  /** Presence metadata; optional, and never a reason to skip delivery. */
  agent_status?(agent_id: string): Promise<AgentStatus>;
}

/** A connector class: constructible, and declaring its capabilities statically. */
export interface AgentConnectorClass {
  new (...args: never): AgentConnector;
  staticCapabilities(): StaticCapabilities;
}

/** The methods every connector must have, in contract order (`agent_status` is optional). */
export const REQUIRED_AGENT_CONNECTOR_METHODS = [
  'list_agents',
  'deliver',
  'wake',
  'health_check',
  'request_response',
] as const;

/** Whether `value` has every required method of {@link AgentConnector} (and `agent_status`, if any, is one). */
export function isAgentConnector(value: unknown): value is AgentConnector {
  return missingMethods(value).length === 0;
}

/**
 * Asserts that `value` has every required method of {@link AgentConnector}; `subject` names it in the
 * error message (default `value`).
 *
 * @throws {AgentConnectorError} `invalid_agent_connector`, listing what is missing in `details.missing`.
 */
export function assertAgentConnector(value: unknown, subject = 'value'): asserts value is AgentConnector {
  const missing = missingMethods(value);
  if (missing.length > 0) {
    throw new AgentConnectorError(
      'invalid_agent_connector',
      `${subject} is not an AgentConnector: missing method(s) ${missing.join(', ')}`,
      { details: { missing } },
    );
  }
}

/**
 * The class of a connector instance — its `constructor` — when that class declares a static
 * `staticCapabilities()`; `undefined` otherwise (a plain-object connector, a class without the method).
 */
export function agentConnectorClassOf(connector: AgentConnector): AgentConnectorClass | undefined {
  const ctor: unknown = (connector as { readonly constructor?: unknown }).constructor;
  if (typeof ctor !== 'function') return undefined;
  const read: unknown = (ctor as { readonly staticCapabilities?: unknown }).staticCapabilities;
  return typeof read === 'function' ? (ctor as AgentConnectorClass) : undefined;
}

/**
 * The validated static capabilities of a connector instance's class, or `undefined` when the class has
 * no static `staticCapabilities()`.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: `staticCapabilities()` returned an invalid shape.
 */
export function staticCapabilitiesOf(connector: AgentConnector): StaticCapabilities | undefined {
  const ctor = agentConnectorClassOf(connector);
  return ctor === undefined ? undefined : parseStaticCapabilities(ctor.staticCapabilities());
}

function missingMethods(value: unknown): readonly string[] {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return [...REQUIRED_AGENT_CONNECTOR_METHODS];
  }
  const record = value as Record<string, unknown>;
  const missing: string[] = REQUIRED_AGENT_CONNECTOR_METHODS.filter((m) => typeof record[m] !== 'function');
  if (record.agent_status !== undefined && typeof record.agent_status !== 'function')
    missing.push('agent_status');
  return missing;
}

/** What an agent listed by `list_agents()` can take. */
export type AgentCapability = 'deliver' | 'wake' | 'augment' | 'template';

/** Every {@link AgentCapability}. */
export const AGENT_CAPABILITIES: readonly AgentCapability[] = ['deliver', 'wake', 'augment', 'template'];

/** One agent a connector can reach, as `list_agents()` returns it. */
export interface AgentDescriptor {
  /** The id the runtime matches addresses against (exactly, or the part before the first `@`). */
  readonly agent_id: string;
  readonly agent_name?: string;
  readonly capabilities?: readonly AgentCapability[];
}

/** Presence metadata from the optional `agent_status()`; the runtime never gates delivery on it. */
export type AgentStatus = 'active' | 'idle' | 'asleep' | 'unknown';

/** Every {@link AgentStatus}. */
export const AGENT_STATUSES: readonly AgentStatus[] = ['active', 'idle', 'asleep', 'unknown'];

/** Zod schema of {@link AgentDescriptor}; unknown keys are kept. */
export const agentDescriptorSchema: z.ZodType<AgentDescriptor> = z.looseObject({
  agent_id: z.string(),
  agent_name: z.string().exactOptional(),
  capabilities: z
    .array(z.enum(AGENT_CAPABILITIES as readonly [AgentCapability, ...AgentCapability[]]))
    .exactOptional(),
});

/** Zod schema of the array `list_agents()` resolves to. */
export const agentDescriptorListSchema: z.ZodType<readonly AgentDescriptor[]> =
  z.array(agentDescriptorSchema);

/** Zod schema of {@link AgentStatus}. */
export const agentStatusSchema: z.ZodType<AgentStatus> = z.enum(
  AGENT_STATUSES as readonly [AgentStatus, ...AgentStatus[]],
);

/**
 * Validates what `list_agents()` resolved to.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a non-array, or an entry without a string
 *   `agent_id`.
 */
export function parseAgentDescriptors(value: unknown): readonly AgentDescriptor[] {
  return parseContractValue(agentDescriptorListSchema, 'AgentDescriptor[]', value);
}

/**
 * Validates what `agent_status()` resolved to.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: anything but the four status strings.
 */
export function parseAgentStatus(value: unknown): AgentStatus {
  return parseContractValue(agentStatusSchema, 'AgentStatus', value);
}

/** The contract version every connector in this package reports. */
export const AGENT_CONNECTOR_CONTRACT_VERSION = '1.0.0';

/** A contract method a connector class can declare (method-presence flags). A closed set. */
export type AgentConnectorFeature =
  | 'deliver'
  | 'wake'
  | 'list_agents'
  | 'agent_status'
  | 'health_check'
  | 'request_response';

/** Every {@link AgentConnectorFeature}. */
export const AGENT_CONNECTOR_FEATURES: readonly AgentConnectorFeature[] = [
  'deliver',
  'wake',
  'list_agents',
  'agent_status',
  'health_check',
  'request_response',
];

/**
 * What a connector class declares about itself through its static `staticCapabilities()`, readable
 * without constructing it.
 */
export interface StaticCapabilities {
  readonly connector_type: 'agent_connector';
  /** The implementation's name, e.g. `HttpWebhookAgentConnector`; never empty. */
  readonly implementation: string;
  /** `major.minor.patch` of the contract implemented, e.g. {@link AGENT_CONNECTOR_CONTRACT_VERSION}. */
  readonly contract_version: string;
  /** Which methods really work; a feature left out counts as `false`. */
  readonly features: Partial<Record<AgentConnectorFeature, boolean>>;
}

/** Zod schema of {@link StaticCapabilities}; a feature outside the closed set is refused. */
export const staticCapabilitiesSchema: z.ZodType<StaticCapabilities> = z.object({
  connector_type: z.literal('agent_connector'),
  implementation: z.string().min(1),
  contract_version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be major.minor.patch'),
  features: z.partialRecord(
    z.enum(AGENT_CONNECTOR_FEATURES as readonly [AgentConnectorFeature, ...AgentConnectorFeature[]]),
    z.boolean(),
  ),
});

/**
 * Validates a connector class's static capabilities.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a wrong `connector_type`, an empty
 *   `implementation`, a `contract_version` that is not `d.d.d`, an unknown feature or a non-boolean flag.
 */
export function parseStaticCapabilities(value: unknown): StaticCapabilities {
  return parseContractValue(staticCapabilitiesSchema, 'StaticCapabilities', value);
}

/**
 * The trigger kinds the contract declares. The reference runtime emits only `cron`, `event` and `inline`
 * (its default); the others are declared for adopters' runtimes.
 */
export type KnownTriggerKind = 'cron' | 'event' | 'webhook' | 'agent' | 'cli' | 'dashboard' | 'inline';

/**
 * How the skill that emitted a delivery was fired: one of the `KnownTriggerKind`s, or any other
 * string. The reference runtime copies its trigger source into `origin.trigger_kind` without checking it,
 * so unknown values reach connectors (`session`, removed from the contract in reference v0.19.0 but still
 * sent by older runtimes, or an adopter's own trigger source); they pass through untouched, like the
 * empty string. Editors still offer the known values.
 */
export type TriggerKind = KnownTriggerKind | (string & {});

/** Every `KnownTriggerKind`, in contract order. */
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
 * Whether `value` is one of the contract's `KnownTriggerKind`s, for receivers that route on it.
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
  /** How the skill was fired; any string, see `TriggerKind`. */
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
 * `origin.trigger_kind` may be any string: unknown kinds pass through (see `TriggerKind`).
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing or mistyped field (a non-string
 *   `trigger_kind` too), `null` in an optional field, an empty `dispatch_id`, or a negative or non-finite
 *   `sent_at`.
 */
export function parseDeliveryMeta(value: unknown): DeliveryMeta {
  return parseContractValue(deliveryMetaSchema, 'DeliveryMeta', value);
}

/** `augment`: context to absorb. `template`: a playbook to execute. A closed set in contract v1.0. */
export type DeliveryKind = 'augment' | 'template';

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

/** Options of `request_response()`. */
export interface RequestResponseOpts {
  /** How long to wait for the reply, in milliseconds. */
  readonly timeout_ms: number;
}

/**
 * The reply `request_response()` resolves to (the contract's `Response`, renamed so that it does not
 * shadow the Fetch API's `Response`).
 */
export interface AgentResponse {
  /** The `meta.correlation_id` of the request, echoed by the agent. */
  readonly correlation_id: string;
  readonly content: string;
  /** When the agent sent the reply (unix ms). */
  readonly sent_at: number;
  readonly agent_id: string;
}

/** Zod schema of {@link RequestResponseOpts}. */
export const requestResponseOptsSchema: z.ZodType<RequestResponseOpts> = z.looseObject({
  timeout_ms: z.number().positive(),
});

/** Zod schema of {@link AgentResponse}; unknown keys are kept. */
export const agentResponseSchema: z.ZodType<AgentResponse> = z.looseObject({
  correlation_id: z.string(),
  content: z.string(),
  sent_at: z.number().nonnegative(),
  agent_id: z.string(),
});

/**
 * Validates the options handed to `request_response()`.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing, non-positive or non-finite `timeout_ms`.
 */
export function parseRequestResponseOpts(value: unknown): RequestResponseOpts {
  return parseContractValue(requestResponseOptsSchema, 'RequestResponseOpts', value);
}

/**
 * Validates the reply a connector's `request_response()` resolved to.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: a missing or mistyped field.
 */
export function parseAgentResponse(value: unknown): AgentResponse {
  return parseContractValue(agentResponseSchema, 'AgentResponse', value);
}

/**
 * Parses `value` with `schema`, reading it as its JSON form would be read: properties whose value is
 * `undefined` count as absent. A failure becomes an `invalid_contract_value` {@link AgentConnectorError}
 * naming the first failing path.
 */
export function parseContractValue<T>(
  schema: z.ZodType<T>,
  contractType: ContractValueType,
  value: unknown,
): T {
  const result = schema.safeParse(withoutUndefinedProperties(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue === undefined ? '$' : jsonPath(issue.path);
  throw invalidContractValue(contractType, path, issue?.message ?? 'invalid value', result.error);
}

/**
 * The `invalid_contract_value` error: `contract_type` was being read, `path` is the JSON path of the first
 * failing field (`$` for the value itself), `rule` says what it breaks.
 */
export function invalidContractValue(
  contract_type: ContractValueType,
  path: string,
  rule: string,
  cause?: unknown,
): AgentConnectorError {
  return new AgentConnectorError('invalid_contract_value', `invalid ${contract_type} at ${path}: ${rule}`, {
    path,
    details: { contract_type },
    cause,
  });
}

function withoutUndefinedProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefinedProperties);
  if (!isPlainObject(value)) return value;
  // fromEntries defines own properties, so a `__proto__` key stays data.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, withoutUndefinedProperties(item)]),
  );
}

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return out;
}
