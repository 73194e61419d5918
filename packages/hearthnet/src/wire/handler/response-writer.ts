import { canonicalJsonString } from '../../canonical-json/index.js';
import { asHearthNetError, type HearthNetError, toErrorBody } from '../../capabilities/index.js';
import type { KeyPair } from '../../crypto/index.js';
import { signResponseEnvelope } from '../envelope.js';
import { JSON_CONTENT_TYPE, WIRE_HEADERS } from '../headers.js';
import { formatWireTimestamp } from '../timestamp.js';

/** What every response of one call shares: who answers, about which request. */
export interface ResponseContext {
  readonly identity: KeyPair;
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  readonly signResponses: boolean;
  readonly now: () => number;
  /**
   * Write the body as plain compact JSON, numbers as they are (the reference wire: a reference node
   * answers through FastAPI, unsigned); default: canonical JSON of the normalised form.
   */
  readonly plainJson?: boolean;
}

/**
 * A JSON response (contract §5.2, §5.4): `X-HearthNet-Request-Id`, `-From`, `-Timestamp` and, when
 * signing, `-Signature` over the response envelope. The body is sent as canonical JSON of its
 * normalised form, so the bytes the signature covers are the bytes sent.
 */
export function jsonResponse(context: ResponseContext, status: number, body: unknown): Response {
  const timestamp = formatWireTimestamp(context.now());
  const headers = new Headers({ 'Content-Type': JSON_CONTENT_TYPE });
  if (context.requestId !== '') headers.set(WIRE_HEADERS.requestId, context.requestId);
  headers.set(WIRE_HEADERS.from, context.identity.nodeId);
  headers.set(WIRE_HEADERS.timestamp, timestamp);
  if (context.plainJson === true) return new Response(JSON.stringify(body), { status, headers });
  let sent = body;
  if (context.signResponses) {
    const signed = signResponseEnvelope(
      {
        capability: context.capability,
        version: context.version,
        requestId: context.requestId,
        from: context.identity.nodeId,
        timestamp,
        status,
        body,
      },
      context.identity,
    );
    headers.set(WIRE_HEADERS.signature, signed.signature);
    sent = signed.body;
  }
  return new Response(canonicalJsonString(sent), { status, headers });
}

/** The §5.4 error response of any thrown value, with its §5.5 status unless `status` overrides it. */
export function errorResponse(context: ResponseContext, error: unknown, status?: number): Response {
  const converted: HearthNetError = asHearthNetError(error);
  return jsonResponse(context, status ?? converted.status, toErrorBody(converted));
}
