import { HearthNetLocalError, signPayload } from '@agentwire/hearthnet';
import {
  encodeSseFrame,
  requestEnvelopeBytes,
  responseEnvelopeBytes,
  SseFrameReader,
  SseParser,
  signRequestEnvelope,
  signResponseEnvelope,
  verifyRequestEnvelope,
} from '@agentwire/hearthnet/wire';
import type { WireImplementation } from './wire.js';

/** `wireSuite`'s view of `@agentwire/hearthnet/wire`: envelopes, signatures and the SSE codec. */
export const agentwireWire: WireImplementation = {
  requestEnvelopeBytes,
  signRequest: (fields, seed) => signRequestEnvelope(fields, seed).signature,
  verifyRequest: (fields, signature) => verifyRequestEnvelope(fields, signature).valid,
  responseEnvelopeBytes,
  signResponse: (fields, seed) => signResponseEnvelope(fields, seed).signature,
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
  errorReason: (error) =>
    error instanceof HearthNetLocalError && error.code === 'sse_protocol' ? error.details?.reason : undefined,
};
