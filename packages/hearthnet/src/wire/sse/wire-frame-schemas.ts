import {
  type CapabilityDescriptor,
  compileSchema,
  type JsonSchema,
  validatorsFor,
} from '../../capabilities/index.js';
import { HearthNetLocalError } from '../../errors.js';
import { ACK_EVENT, ERROR_EVENT, PROGRESS_EVENT, type SseFrame } from './sse-event.js';

const COUNT = { type: 'integer', minimum: 0 } as const;

/** `progress` data (contract §5.3): `{current, total, stage}`, any capability; `current` required. */
export const PROGRESS_FRAME_DATA_SCHEMA = {
  type: 'object',
  properties: { current: COUNT, total: COUNT, stage: { type: 'string' } },
  required: ['current'],
} as const satisfies JsonSchema;

/** `ack` data (contract §5.3): `{upto}`, the number of frames the client has received so far. */
export const ACK_FRAME_DATA_SCHEMA = {
  type: 'object',
  properties: { upto: COUNT },
  required: ['upto'],
} as const satisfies JsonSchema;

/** `error` data: the §5.4 error body; `error` (the code) required. */
export const ERROR_FRAME_DATA_SCHEMA = {
  type: 'object',
  properties: {
    error: { type: 'string', minLength: 1 },
    message: { type: 'string' },
    retry_after_ms: COUNT,
    alt_capabilities: { type: 'array', items: { type: 'string' } },
    alt_nodes: { type: 'array', items: { type: 'string' } },
    schema_hash_expected: { type: 'string' },
  },
  required: ['error'],
} as const satisfies JsonSchema;

const wireFrameSchemas: ReadonlyMap<string, ReturnType<typeof compileSchema>> = new Map([
  [PROGRESS_EVENT, compileSchema(PROGRESS_FRAME_DATA_SCHEMA)],
  [ACK_EVENT, compileSchema(ACK_FRAME_DATA_SCHEMA)],
  [ERROR_EVENT, compileSchema(ERROR_FRAME_DATA_SCHEMA)],
]);

/** Checks one frame and returns it (defaults filled in), or throws {@link HearthNetLocalError}
 * `sse_protocol` (`details.reason` `invalid_frame`). */
export type StreamFrameValidator = (frame: SseFrame) => SseFrame;

/**
 * The validator of a capability's stream frames (contract §5.3): `progress`, `ack` and `error`
 * against the contract-wide schemas above, every other event against the descriptor's
 * `streamSchema` (through the catalogue's validators). Without a descriptor, or for a descriptor
 * that does not stream, only the contract-wide events are checked.
 *
 * @example
 * const validate = streamFrameValidator(LLM_CHAT);
 * validate({ event: 'token', data: { text: 'Sie ' } }); // ok
 * validate({ event: 'token', data: {} });              // throws HearthNetLocalError sse_protocol
 * (invalid_frame)
 */
export function streamFrameValidator(descriptor?: CapabilityDescriptor): StreamFrameValidator {
  const capabilityFrames = descriptor === undefined ? null : validatorsFor(descriptor).stream;
  const capability = descriptor === undefined ? 'stream' : `${descriptor.name}@${descriptor.version}`;
  return (frame) => {
    const wide = wireFrameSchemas.get(frame.event);
    if (wide !== undefined) {
      const result = wide.safeParse(frame.data);
      if (!result.success) throw invalid(capability, frame.event, result.error.issues[0]?.message);
      return { event: frame.event, data: result.data };
    }
    if (capabilityFrames === null) return frame;
    const result = capabilityFrames.check(frame);
    if (!result.ok)
      throw invalid(capability, frame.event, `${result.issues[0]?.path}: ${result.issues[0]?.message}`);
    return result.value as SseFrame;
  };
}

function invalid(capability: string, event: string, detail: string | undefined): HearthNetLocalError {
  return new HearthNetLocalError(
    'sse_protocol',
    `${capability} frame "${event}" does not match its schema: ${detail ?? 'invalid'}`,
    { details: { reason: 'invalid_frame' } },
  );
}
