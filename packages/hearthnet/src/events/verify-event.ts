import { formatJsonPath } from '../canonical-json/json-path.js';
import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import { verifyPayload } from '../crypto/payload-signature.js';
import { EVENT_SCHEMA_VERSION, eventEnvelopeSchema, type SignedEvent } from './envelope.js';
import { eventDataSchemas } from './event-data.js';
import { isEventType } from './event-types.js';

/**
 * Why an event was refused, by {@link verifyEvent} (a received event) or {@link createEvent} (input):
 * - `malformed_envelope`: not an object, or an envelope field missing, mistyped or unknown (§7.1);
 * - `unsupported_schema_version`: `schema_version` is not 1 (§2.3);
 * - `unknown_event_type`: `event_type` is not one of the known types (§7.2);
 * - `invalid_data`: `data` does not match the schema of its type;
 * - `invalid_signature`: the signature does not verify under `author`.
 */
export type EventRejectionReason =
  | 'malformed_envelope'
  | 'unsupported_schema_version'
  | 'unknown_event_type'
  | 'invalid_data'
  | 'invalid_signature';

/** A refused event: the reason, the contract §9 code to answer with, a message and the field's path. */
export interface EventRejection {
  readonly valid: false;
  readonly reason: EventRejectionReason;
  readonly code: HearthNetErrorCode;
  readonly message: string;
  /** The JSON path of the offending field, e.g. `$.data.recipient` (`$` for the whole event). */
  readonly path: string;
}

/** The verdict on an event: the typed event, or why it was refused. */
export type EventVerdict = { readonly valid: true; readonly event: SignedEvent } | EventRejection;

const codes: { readonly [R in EventRejectionReason]: HearthNetErrorCode } = {
  malformed_envelope: 'bad_request',
  unsupported_schema_version: 'schema_mismatch',
  unknown_event_type: 'bad_request',
  invalid_data: 'bad_request',
  invalid_signature: 'invalid_signature',
};

/**
 * Checks an event received from a peer: its shape ({@link validateEvent}), then its signature under
 * `author` over the canonical JSON of everything but `signature` (contract §7.1, §10). Never throws.
 * Authorisation (who may produce the type) is not judged here.
 *
 * @example
 * const verdict = verifyEvent(incoming);
 * if (!verdict.valid) rejected.push({ event_id: incoming.event_id, reason: verdict.reason });
 */
export function verifyEvent(value: unknown): EventVerdict {
  const verdict = validateEvent(value);
  if (!verdict.valid) return verdict;
  const signature = verifyPayload(value, verdict.event.author);
  if (!signature.valid) {
    return rejectEvent(
      'invalid_signature',
      '$.signature',
      `the signature does not verify under the author's key (${signature.reason})`,
    );
  }
  return verdict;
}

/**
 * Checks an event's shape without its signature, in this order: an object (`malformed_envelope`),
 * `schema_version` 1 (`unsupported_schema_version`), the eight envelope fields and no others
 * (`malformed_envelope`), a known `event_type` (`unknown_event_type`), `data` against the type's
 * schema (`invalid_data`). Never throws.
 */
export function validateEvent(value: unknown): EventVerdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return rejectEvent('malformed_envelope', '$', 'an event must be a JSON object');
  }
  const version = (value as { schema_version?: unknown }).schema_version;
  if (typeof version === 'number' && version !== EVENT_SCHEMA_VERSION) {
    return rejectEvent(
      'unsupported_schema_version',
      '$.schema_version',
      `schema_version ${version} is not ${EVENT_SCHEMA_VERSION}`,
    );
  }
  const envelope = eventEnvelopeSchema.safeParse(value);
  if (!envelope.success) return rejectionFromIssue('malformed_envelope', [], envelope.error);
  const { event_type: type, data } = envelope.data;
  if (!isEventType(type)) {
    return rejectEvent('unknown_event_type', '$.event_type', `unknown event type ${JSON.stringify(type)}`);
  }
  const parsed = eventDataSchemas[type].safeParse(data);
  if (!parsed.success) return rejectionFromIssue('invalid_data', ['data'], parsed.error);
  return { valid: true, event: value as SignedEvent };
}

/** A refusal verdict. */
export function rejectEvent(reason: EventRejectionReason, path: string, message: string): EventRejection {
  return { valid: false, reason, code: codes[reason], message, path };
}

function rejectionFromIssue(
  reason: EventRejectionReason,
  prefix: readonly string[],
  error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] },
): EventRejection {
  const issue = error.issues[0];
  const segments = [...prefix, ...(issue?.path ?? [])].filter((segment) => typeof segment !== 'symbol');
  const path = formatJsonPath(segments as (string | number)[]);
  return rejectEvent(reason, path, `${path}: ${issue?.message ?? 'invalid'}`);
}
