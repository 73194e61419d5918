import { HearthNetLocalError, keyPairFromSeed, signPayload } from '@agentwire/hearthnet';
import {
  BadRequestError,
  CapacityExceededError,
  ExpiredError,
  type HearthNetError,
  InternalError,
  InvalidSignatureError,
  NotFoundError,
  NotImplementedError,
  PartitionError,
  RateLimitedError,
  RevokedError,
  SchemaMismatchError,
  TimeoutError,
  UnauthorizedError,
} from '@agentwire/hearthnet/capabilities';
import { referenceWire } from '@agentwire/hearthnet/compat';
import {
  contractWire,
  encodeSseFrame,
  requestEnvelopeBytes,
  responseEnvelopeBytes,
  SseFrameReader,
  SseParser,
  signRequestEnvelope,
  signResponseEnvelope,
  verifyRequestEnvelope,
  verifyResponseEnvelope,
} from '@agentwire/hearthnet/wire';
import type { WireErrorFacts, WireImplementation } from './wire.js';

/** The 13 error classes of contract §9, by their wire code. */
const errorClasses = new Map(
  [
    BadRequestError,
    SchemaMismatchError,
    InvalidSignatureError,
    UnauthorizedError,
    RevokedError,
    ExpiredError,
    NotFoundError,
    NotImplementedError,
    TimeoutError,
    PartitionError,
    CapacityExceededError,
    RateLimitedError,
    InternalError,
  ].map((ErrorClass) => [new ErrorClass().code as string, ErrorClass] as const),
);

function errorClassOf(code: string) {
  const ErrorClass = errorClasses.get(code);
  if (ErrorClass === undefined) throw new Error(`${code} is not one of the 13 error codes`);
  return ErrorClass;
}

/** The node answering refusals in `encodeError` (its key would sign responses; these are unsigned). */
const answeringNode = keyPairFromSeed(new Uint8Array(32).fill(0x57));

/** The fields of a decoded error, those it does not carry left out. */
function factsOf(error: HearthNetError): WireErrorFacts {
  const fields: Record<string, unknown> = {
    code: error.code,
    message: error.message,
    retry_after_ms: error.retryAfterMs,
    alt_capabilities: error.altCapabilities,
    alt_nodes: error.altNodes,
    schema_hash_expected: error instanceof SchemaMismatchError ? error.schemaHashExpected : undefined,
    remote_code: error.remoteCode,
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as unknown as WireErrorFacts;
}

/**
 * `wireSuite`'s view of `@agentwire/hearthnet/wire`: envelopes, signatures and the SSE codec; the
 * error classes of `@agentwire/hearthnet/capabilities` for the §9 rules; error bodies read as the
 * client reads them (`contractWire.readError` for error statuses, `referenceWire.readError` for the
 * in-band errors reference nodes answer with 200) and written as the bus handler writes them
 * (`contractWire.writeRefusal`).
 */
export const agentwireWire: WireImplementation = {
  requestEnvelopeBytes,
  // A key pair, not the bare seed: the SDK checks `from` against the signer's node id only when it knows it.
  signRequest: (fields, seed) => signRequestEnvelope(fields, keyPairFromSeed(seed)).signature,
  verifyRequest: (fields, signature) => verifyRequestEnvelope(fields, signature).valid,
  responseEnvelopeBytes,
  signResponse: (fields, seed) => signResponseEnvelope(fields, keyPairFromSeed(seed)).signature,
  verifyResponse: (fields, signature) => verifyResponseEnvelope(fields, signature).valid,
  signReferenceBody: (body, seed) => signPayload(body, seed).signature,
  encodeSseFrame,
  parseSse: (chunks) => {
    const parser = new SseParser();
    return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.finish()];
  },
  readSseFrames: (chunks) => {
    const reader = new SseFrameReader();
    return [...chunks.flatMap((chunk) => reader.push(chunk)), ...reader.finish()];
  },
  // The SDK refuses a stream with an sse_protocol error whose details.reason is the fixture's reason; any
  // other error (a TypeError from a reader that crashed, another code, no reason) answers a reason no
  // fixture case expects.
  errorReason: (error) =>
    error instanceof HearthNetLocalError && error.code === 'sse_protocol'
      ? String(error.details?.reason ?? 'an sse_protocol error without details.reason')
      : `not an sse_protocol HearthNetLocalError: ${String(error)}`,
  errorCodeFacts: (code) => {
    const error = new (errorClassOf(code))();
    return {
      status: error.status,
      retry_policy: error.retryPolicy,
      retryable: error.retryable,
      retry_if_idempotent: error.shouldRetry(true),
      retry_if_not_idempotent: error.shouldRetry(false),
    };
  },
  decodeError: (body, status) => {
    const error = contractWire.readError(status, body) ?? referenceWire.readError(status, body);
    if (error === undefined)
      throw new Error(`an answer with status ${status} read as a result, not an error`);
    return factsOf(error);
  },
  encodeError: async (facts) => {
    const error = new (errorClassOf(facts.code))(facts.message, {
      ...(facts.retry_after_ms === undefined ? {} : { retryAfterMs: facts.retry_after_ms }),
      ...(facts.alt_capabilities === undefined ? {} : { altCapabilities: facts.alt_capabilities }),
      ...(facts.alt_nodes === undefined ? {} : { altNodes: facts.alt_nodes }),
      ...(facts.schema_hash_expected === undefined ? {} : { schemaHashExpected: facts.schema_hash_expected }),
    });
    const response = contractWire.writeRefusal(
      {
        identity: answeringNode,
        capability: '',
        version: '',
        requestId: '',
        signResponses: false,
        now: Date.now,
      },
      { error, origin: 'capability', status: undefined, streamRequested: false },
    );
    return response.json();
  },
};
