import { BadRequestError } from '../../capabilities/index.js';
import { WIRE_HEADERS } from '../headers.js';
import { isAcceptableRequestId } from '../request-id.js';
import type { WireMode } from '../wire-mode.js';
import { referenceVersion, withReferenceAnswer } from './reference-answers.js';

/** A call as read off the wire, before any check beyond its shape. */
export interface IncomingCall {
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  /** `X-HearthNet-From`, when sent. */
  readonly from: string | undefined;
  /** `X-HearthNet-Community`, when sent. */
  readonly community: string | undefined;
  /** `X-HearthNet-Timestamp`, when sent. */
  readonly timestamp: string | undefined;
  /** `X-HearthNet-Signature`, when sent. */
  readonly signature: string | undefined;
  /** The whole parsed JSON body: what a contract signature covers as `body`, a reference signature as a whole. */
  readonly signedBody: unknown;
  /** `{params, input}` for the capability's request validator. */
  readonly request: unknown;
  /** The reference wire's `stream` in the body, read as Python truthiness; `undefined` on the contract wire. */
  readonly streamRequested: boolean | undefined;
}

/**
 * Reads the routing of a call: from the `X-HearthNet-*` headers and a `{params, input}` body
 * (contract §5.1), or from a `{capability, version, params, input, stream}` body (reference wire,
 * note §6; `version` defaults to `1.0`, `params` and `input` to `{}`).
 *
 * @throws {BadRequestError} when a required header or field is missing or malformed.
 */
export function readIncomingCall(headers: Headers, body: unknown, mode: WireMode): IncomingCall {
  const header = (name: string) => headers.get(name) ?? undefined;
  const requestId = header(WIRE_HEADERS.requestId);
  const common = {
    from: header(WIRE_HEADERS.from),
    community: header(WIRE_HEADERS.community),
    timestamp: header(WIRE_HEADERS.timestamp),
    signature: header(WIRE_HEADERS.signature),
    signedBody: body,
  };
  if (mode === 'contract') {
    const capability = required(header(WIRE_HEADERS.capability), WIRE_HEADERS.capability);
    const version = required(header(WIRE_HEADERS.capabilityVersion), WIRE_HEADERS.capabilityVersion);
    return {
      ...common,
      capability,
      version,
      requestId: checkedRequestId(required(requestId, WIRE_HEADERS.requestId)),
      request: body,
      streamRequested: undefined,
    };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError('the request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const capability = fields['capability'];
  if (typeof capability !== 'string' || capability === '') {
    throw withReferenceAnswer(new BadRequestError('missing capability'), {
      status: 400,
      body: { error: 'missing_capability', message: 'capability field required' },
    });
  }
  const sent = fields['version'] ?? '1.0';
  if (typeof sent !== 'string') throw new BadRequestError('version must be a "major.minor" string');
  const version = referenceVersion(sent);
  if ('refused' in version) {
    throw withReferenceAnswer(new BadRequestError(`invalid version ${JSON.stringify(sent)}`), {
      status: 400,
      body: { error: 'invalid_version', message: version.refused },
    });
  }
  return {
    ...common,
    capability,
    version: version.version,
    // The reference client sends 16 hex characters, its node transport none; a reference node reads
    // no header, so one we would refuse is ignored here.
    requestId: requestId !== undefined && isAcceptableRequestId(requestId) ? requestId : '',
    request: { params: fields['params'] ?? {}, input: fields['input'] ?? {} },
    streamRequested: isPythonTruthy(fields['stream']),
  };
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new BadRequestError(`missing ${name} header`);
  return value;
}

function checkedRequestId(value: string): string {
  if (!isAcceptableRequestId(value)) throw new BadRequestError('malformed X-HearthNet-Request-Id');
  return value;
}

/** Python truthiness of a JSON value: the reference asks for a stream with any truthy `stream`. */
function isPythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}
