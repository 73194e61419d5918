import type { DeliveryKind, DeliveryPayload } from '../contract/delivery-payload.js';

/**
 * The JSON object `deliver()` writes to `<dir>/<agent>/<dispatch_id>.json`, keys in this order:
 * `agent_id` (the address exactly as passed, `agent@session` included), `session_id` (only when one was
 * resolved), `kind` (the payload's kind, repeated so a reader can route without opening `payload`) and
 * `payload` (the validated payload with its `meta`, unknown keys kept). No timestamp is written, so a retry
 * of the same dispatch produces the same bytes; `payload.meta.sent_at` is the emit time.
 */
export interface DeliveryDropDocument {
  readonly agent_id: string;
  readonly session_id?: string;
  readonly kind: DeliveryKind;
  readonly payload: DeliveryPayload;
}

/**
 * The JSON object `wake()` writes to `<dir>/<agent>/wake-<uuid>.json`: `agent_id`, `session_id` (when
 * resolved), `kind: 'wake'`, then `context` and `when` when `WakeOpts` carried them.
 */
export interface WakeDropDocument {
  readonly agent_id: string;
  readonly session_id?: string;
  readonly kind: 'wake';
  readonly context?: string;
  readonly when?: 'immediate' | number;
}

/** Any file a `FileDropAgentConnector` writes; discriminated on `kind`. */
export type DropDocument = DeliveryDropDocument | WakeDropDocument;

/**
 * The exact bytes of a drop file: `JSON.stringify` with 2-space indentation, characters outside ASCII
 * written raw (UTF-8), followed by one `\n`.
 *
 * @throws {TypeError} a value JSON cannot carry (a `bigint` in an unknown payload key).
 */
export function serializeDropDocument(document: DropDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
