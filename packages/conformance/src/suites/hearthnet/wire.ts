import errorFixture from '../../../fixtures/hearthnet/error-mappings.json' with { type: 'json' };
import sseFixture from '../../../fixtures/hearthnet/sse-frames.json' with { type: 'json' };
import envelopeFixture from '../../../fixtures/hearthnet/wire-envelopes.json' with { type: 'json' };
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readBoolean,
  readBytes,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_SUITE_VERSION, HEARTHNET_WIRE_SUITE_VERSION } from './suite-version.js';

/** The fields of a request envelope (contract §5.1), as the `X-HearthNet-*` headers and the body carry them. */
export interface WireRequestFields {
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  readonly from: string;
  readonly community: string;
  readonly timestamp: string;
  readonly body: unknown;
}

/** The fields of a response envelope (contract §5.2 as agentwire reads it): the request answered, responder, status, body. */
export interface WireResponseFields {
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  readonly from: string;
  readonly timestamp: string;
  readonly status: number;
  readonly body: unknown;
}

/** One item of an SSE stream: an event (name and data text) or a comment. */
export type WireSseItem =
  | { readonly type: 'event'; readonly event: string; readonly data: string }
  | { readonly type: 'comment'; readonly text: string };

/** The §9 rules of one error code, with the fixture's field names. */
export interface WireErrorCodeFacts {
  /** The HTTP status of §5.5. */
  readonly status: number;
  /** `never`, `with_backoff`, `after_retry_after` or `if_idempotent`. */
  readonly retry_policy: string;
  /** Whether a call to any capability may be retried. */
  readonly retryable: boolean;
  /** Whether a call to an idempotent capability may be retried. */
  readonly retry_if_idempotent: boolean;
  /** Whether a call to a capability that is not idempotent may be retried. */
  readonly retry_if_not_idempotent: boolean;
}

/** An error as the §5.4 body carries it, with the fixture's field names; absent fields left out. */
export interface WireErrorFacts {
  readonly code: string;
  readonly message?: string;
  readonly retry_after_ms?: number;
  readonly alt_capabilities?: readonly string[];
  readonly alt_nodes?: readonly string[];
  readonly schema_hash_expected?: string;
  /** The code exactly as the peer sent it, when it was mapped onto one of the 13 (decoding only). */
  readonly remote_code?: string;
}

/** The wire functions under test. Envelope bytes, request signing and the SSE codec are required. */
export interface WireImplementation {
  /** Canonical JSON of the request envelope, as bytes or text. */
  requestEnvelopeBytes(fields: WireRequestFields): Uint8Array | string | Promise<Uint8Array | string>;
  /**
   * The `X-HearthNet-Signature` of a request signed with a 32-byte seed (`from` is its node id). Throws
   * (refuses to sign) for a timestamp that is not RFC 3339 UTC with `Z` and at most milliseconds, or names
   * no real time (§1.1), and for a `from` that is not the seed's node id (§5.1).
   */
  signRequest(fields: WireRequestFields, seed: Uint8Array): string | Promise<string>;
  /**
   * Whether a request signature verifies under the key of `fields.from`. Capability `verify-request`. A
   * field that is `null` stands for a header the request left out: the answer is then `false`, not an
   * exception (a server turns an exception into a 500, not a refusal of the request).
   */
  verifyRequest?(fields: WireRequestFields, signature: string): boolean | Promise<boolean>;
  /** Canonical JSON of a response envelope. Capability `response-envelope` (with `signResponse`). */
  responseEnvelopeBytes?(fields: WireResponseFields): Uint8Array | string | Promise<Uint8Array | string>;
  /** The signature of a response signed with a 32-byte seed. */
  signResponse?(fields: WireResponseFields, seed: Uint8Array): string | Promise<string>;
  /**
   * Whether a response signature verifies under the key of `fields.from`, as a client checks an answer
   * (§5.2; mandatory for mutating capabilities). Capability `verify-response`. A signature that does
   * not verify answers `false`, not an exception.
   */
  verifyResponse?(fields: WireResponseFields, signature: string): boolean | Promise<boolean>;
  /** The reference wire's body-only `X-HearthNet-Signature`. Capability `reference-wire`. */
  signReferenceBody?(body: Record<string, unknown>, seed: Uint8Array): string | Promise<string>;
  /** SSE text of a frame `{event, data}`; throws for an event name that is empty or holds CR or LF. */
  encodeSseFrame(frame: { readonly event: string; readonly data: unknown }): string;
  /** Every item of an SSE stream given in chunks. */
  parseSse(
    chunks: readonly (string | Uint8Array)[],
  ): readonly WireSseItem[] | Promise<readonly WireSseItem[]>;
  /**
   * The frames of an SSE stream, enforcing exactly one terminal frame; throws on a broken stream.
   * `errorReason` maps the thrown error to the fixture's reason codes.
   */
  readSseFrames(chunks: readonly (string | Uint8Array)[]): readonly unknown[] | Promise<readonly unknown[]>;
  /** The reason code of an error `readSseFrames` threw (`frame_after_terminal`, …); checked when given. */
  errorReason?(error: unknown): string | undefined;
  /** The status and retry rules of one of the 13 error codes (§5.5, §9). Capability `error-codes`. */
  errorCodeFacts?(code: string): WireErrorCodeFacts | Promise<WireErrorCodeFacts>;
  /**
   * The error a client reads from an answer: its body (parsed JSON, or `null` / the text when it is
   * not JSON) and HTTP status, decoded leniently (§5.4, §5.5). Capability `error-decode`.
   */
  decodeError?(body: unknown, status: number): WireErrorFacts | Promise<WireErrorFacts>;
  /** The §5.4 body a node answers an error with. Capability `error-encode`. */
  encodeError?(error: WireErrorFacts): unknown;
}

const ENVELOPES = 'hearthnet/wire-envelopes.json';
const SSE = 'hearthnet/sse-frames.json';
const ERRORS = 'hearthnet/error-mappings.json';
const SUITE_NAME = 'hearthnet.wire';
const envelopes = readFixtureFile(envelopeFixture, ENVELOPES);
const sse = readFixtureFile(sseFixture, SSE);
const errors = readFixtureFile(errorFixture, ERRORS);
const utf8 = new TextDecoder();

/** The members of a WireImplementation that provide each capability. */
const WIRE_MEMBERS = {
  'verify-request': ['verifyRequest'],
  'response-envelope': ['responseEnvelopeBytes', 'signResponse'],
  'verify-response': ['verifyResponse'],
  'reference-wire': ['signReferenceBody'],
  'error-codes': ['errorCodeFacts'],
  'error-decode': ['decodeError'],
  'error-encode': ['encodeError'],
} as const satisfies CapabilityMembers<WireImplementation>;

/**
 * The signed wire from `fixtures/hearthnet/wire-envelopes.json` (request and response envelope bytes,
 * signatures, tampering verdicts, requests with a header left out, requests a signer must refuse, the
 * reference body signature), `sse-frames.json` (frame encoding, event names an encoder must refuse,
 * incremental parsing under arbitrary chunking, terminal-frame rules and the reasons a stream is refused) and
 * `error-mappings.json` (the 13 error codes' status and retry rules, error bodies decoded and encoded).
 *
 * @example
 * ```ts
 * import { requestEnvelopeBytes, signRequestEnvelope, encodeSseFrame, … } from '@agentwire/hearthnet/wire';
 * const report = await runSuite(wireSuite({ requestEnvelopeBytes, signRequest: (f, seed) => signRequestEnvelope(f, seed).signature, … }));
 * ```
 */
export function wireSuite(implementation: WireImplementation): ConformanceSuite<WireImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, WIRE_MEMBERS));
  return {
    name: SUITE_NAME,
    version: HEARTHNET_WIRE_SUITE_VERSION,
    description: `${envelopes.description}\n\n${sse.description}\n\n${errors.description}`,
    cases: [
      ...envelopes.cases.map((entry, i) => envelopeCase(entry, `${ENVELOPES} cases[${i}]`)),
      ...sse.cases.map((entry, i) => sseCase(entry, `${SSE} cases[${i}]`)),
      ...errors.cases.map((entry, i) => errorCase(entry, `${ERRORS} cases[${i}]`)),
    ],
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(WIRE_MEMBERS, 'WireImplementation'),
  };
}

function text(value: Uint8Array | string): string {
  return typeof value === 'string' ? value : utf8.decode(value);
}

/** The string fields of a request envelope, by their fixture names. */
const REQUEST_HEADER_FIELDS = [
  'capability',
  'version',
  'request_id',
  'from',
  'community',
  'timestamp',
] as const;

/** A request field, or `null` for a header the request left out (verify-request cases only). */
function readHeader(entry: FixtureCase, name: string, location: string): string {
  const value = entry[name];
  return value === null ? (null as unknown as string) : readString(value, `${location}.${name}`);
}

function requestFields(entry: FixtureCase, location: string): WireRequestFields {
  return {
    capability: readHeader(entry, 'capability', location),
    version: readHeader(entry, 'version', location),
    requestId: readHeader(entry, 'request_id', location),
    from: readHeader(entry, 'from', location),
    community: readHeader(entry, 'community', location),
    timestamp: readHeader(entry, 'timestamp', location),
    body: decodeFixtureValue(entry['body'], `${location}.body`),
  };
}

function envelopeCase(entry: FixtureCase, location: string): ConformanceCase<WireImplementation> {
  const common = {
    id: `${SUITE_NAME}.${entry.id}`,
    since: sinceOf(entry, location, HEARTHNET_SUITE_VERSION),
  } as const;
  switch (entry['operation']) {
    case 'request': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const canonical = readString(entry['canonical'], `${location}.canonical`);
      const signature = readString(entry['signature'], `${location}.signature`);
      return {
        ...common,
        title: `request envelope bytes and signature: ${entry.id}`,
        section: 'HearthNet §5.1',
        level: 'required',
        run: async (impl) => {
          const fields = requestFields(entry, location);
          assertEqual(text(await impl.requestEnvelopeBytes(fields)), canonical, 'envelope canonical JSON');
          assertEqual(await impl.signRequest(fields, seed), signature, 'X-HearthNet-Signature');
        },
      };
    }
    case 'response': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const canonical = readString(entry['canonical'], `${location}.canonical`);
      const signature = readString(entry['signature'], `${location}.signature`);
      return {
        ...common,
        title: `response envelope bytes and signature: ${entry.id}`,
        section: 'HearthNet §5.2',
        level: 'recommended',
        requires: 'response-envelope',
        run: async (impl) => {
          const fields = responseFields(entry, location);
          assertEqual(
            text(await impl.responseEnvelopeBytes!(fields)),
            canonical,
            'response envelope canonical JSON',
          );
          assertEqual(await impl.signResponse!(fields, seed), signature, 'response signature');
        },
      };
    }
    case 'reference-body': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const signature = readString(entry['signature'], `${location}.signature`);
      return {
        ...common,
        title: `reference wire body-only signature: ${entry.id}`,
        section: 'HearthNet §5.1 (reference compat)',
        level: 'recommended',
        requires: 'reference-wire',
        run: async (impl) => {
          const body = readObject(decodeFixtureValue(entry['body'], `${location}.body`), `${location}.body`);
          assertEqual(await impl.signReferenceBody!(body, seed), signature, 'body signature');
        },
      };
    }
    case 'sign-refused': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const fields = requestFields(entry, location);
      return {
        ...common,
        title: `refuses to sign a request: ${entry.id}`,
        section: 'HearthNet §1.1, §5.1',
        level: 'required',
        run: async (impl) => {
          let signature: string;
          try {
            signature = await impl.signRequest(fields, seed);
          } catch {
            return;
          }
          fail(
            `signed a request it must refuse (timestamp ${JSON.stringify(fields.timestamp)}, from ${fields.from}): ${signature}`,
          );
        },
      };
    }
    case 'verify-request': {
      const valid = readBoolean(entry['valid'], `${location}.valid`);
      const signature = readString(entry['signature'], `${location}.signature`);
      const leftOut = REQUEST_HEADER_FIELDS.filter((name) => entry[name] === null);
      if (valid && leftOut.length > 0)
        throw invalidFixtureError(`${location}.valid`, 'a request that left a header out cannot verify');
      return {
        ...common,
        title: `request verification ${valid ? 'accepts' : 'rejects'}: ${entry.id}`,
        section: 'HearthNet §5.1',
        level: 'required',
        requires: 'verify-request',
        run: async (impl) => {
          let verdict: boolean;
          try {
            verdict = await impl.verifyRequest!(requestFields(entry, location), signature);
          } catch (error) {
            assertTrue(!valid, `verification threw for a valid signature: ${String(error)}`);
            assertTrue(
              leftOut.length === 0,
              `verification threw for a request without ${leftOut.join(', ')} instead of answering false: ${String(error)}`,
            );
            return;
          }
          assertEqual(verdict, valid, 'verification result');
        },
      };
    }
    case 'verify-response': {
      const valid = readBoolean(entry['valid'], `${location}.valid`);
      const signature = readString(entry['signature'], `${location}.signature`);
      const fields = responseFields(entry, location);
      return {
        ...common,
        title: `response verification ${valid ? 'accepts' : 'rejects'}: ${entry.id}`,
        section: 'HearthNet §5.2',
        level: 'required',
        requires: 'verify-response',
        run: async (impl) => {
          let verdict: boolean;
          try {
            verdict = await impl.verifyResponse!(fields, signature);
          } catch (error) {
            fail(`response verification threw instead of answering ${String(valid)}: ${String(error)}`);
          }
          assertEqual(verdict, valid, 'verification result');
        },
      };
    }
    default:
      throw invalidFixtureError(
        `${location}.operation`,
        'expected request, response, reference-body, sign-refused, verify-request or verify-response',
      );
  }
}

function responseFields(entry: FixtureCase, location: string): WireResponseFields {
  return {
    capability: readString(entry['capability'], `${location}.capability`),
    version: readString(entry['version'], `${location}.version`),
    requestId: readString(entry['request_id'], `${location}.request_id`),
    from: readString(entry['from'], `${location}.from`),
    timestamp: readString(entry['timestamp'], `${location}.timestamp`),
    status: readNonNegativeInteger(entry['status'], `${location}.status`),
    body: decodeFixtureValue(entry['body'], `${location}.body`),
  };
}

function chunksOf(entry: FixtureCase, location: string): (string | Uint8Array)[] {
  const chunks = entry['chunks'];
  if (!Array.isArray(chunks)) throw invalidFixtureError(`${location}.chunks`, 'expected an array');
  return chunks.map((chunk, i) => {
    if (typeof chunk === 'string') return chunk;
    return readBytes(chunk, `${location}.chunks[${i}]`);
  });
}

function sseCase(entry: FixtureCase, location: string): ConformanceCase<WireImplementation> {
  const common = {
    id: `${SUITE_NAME}.sse.${entry.id}`,
    section: 'HearthNet §5.3',
    since: sinceOf(entry, location, HEARTHNET_SUITE_VERSION),
  } as const;
  switch (entry['operation']) {
    case 'encode-frame': {
      const frame = readObject(entry['frame'], `${location}.frame`);
      const expected = readString(entry['expected'], `${location}.expected`);
      return {
        ...common,
        title: `encodes the ${String(frame['event'])} frame: ${entry.id}`,
        level: 'required',
        run: (impl) =>
          assertEqual(
            impl.encodeSseFrame({
              event: readString(frame['event'], `${location}.frame.event`),
              data: frame['data'],
            }),
            expected,
            'SSE text',
          ),
      };
    }
    case 'encode-refused': {
      const frame = readObject(entry['frame'], `${location}.frame`);
      const event = readString(frame['event'], `${location}.frame.event`);
      return {
        ...common,
        title: `refuses to encode the event name ${JSON.stringify(event)}: ${entry.id}`,
        level: 'required',
        run: (impl) => {
          let text: string;
          try {
            text = impl.encodeSseFrame({ event, data: frame['data'] });
          } catch {
            return;
          }
          fail(`encoded a frame whose event name cannot be one SSE line: ${JSON.stringify(text)}`);
        },
      };
    }
    case 'parse': {
      const chunks = chunksOf(entry, location);
      const items = entry['items'];
      return {
        ...common,
        title: `parses ${entry.id}`,
        level: 'required',
        run: async (impl) => assertEqual(await impl.parseSse(chunks), items, 'SSE items'),
      };
    }
    case 'read-frames': {
      const chunks = chunksOf(entry, location);
      const error = 'error' in entry ? readString(entry['error'], `${location}.error`) : undefined;
      return {
        ...common,
        title:
          error === undefined ? `reads frames: ${entry.id}` : `refuses the stream (${error}): ${entry.id}`,
        level: 'required',
        run: async (impl) => {
          let frames: readonly unknown[];
          try {
            frames = await impl.readSseFrames(chunks);
          } catch (thrown) {
            if (error === undefined) fail(`reading threw for a valid stream: ${String(thrown)}`, thrown);
            const reason = impl.errorReason?.(thrown);
            if (reason !== undefined) assertEqual(reason, error, 'error reason');
            return;
          }
          if (error !== undefined)
            fail(`expected the stream to be refused with ${error}, got ${frames.length} frames`);
          assertEqual(frames, entry['frames'], 'frames');
        },
      };
    }
    default:
      throw invalidFixtureError(
        `${location}.operation`,
        'expected encode-frame, encode-refused, parse or read-frames',
      );
  }
}

/** The fields `decodeError` reports, each `undefined` when absent, so a field set where none is expected fails. */
function decodedFields(facts: WireErrorFacts): Record<string, unknown> {
  return {
    code: facts.code,
    retry_after_ms: facts.retry_after_ms,
    alt_capabilities: facts.alt_capabilities,
    alt_nodes: facts.alt_nodes,
    schema_hash_expected: facts.schema_hash_expected,
    remote_code: facts.remote_code,
  };
}

function errorCase(entry: FixtureCase, location: string): ConformanceCase<WireImplementation> {
  const common = { id: `${SUITE_NAME}.error.${entry.id}`, since: HEARTHNET_SUITE_VERSION } as const;
  switch (entry['operation']) {
    case 'code': {
      const code = readString(entry['code'], `${location}.code`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      const retryable = readBoolean(expected['retryable'], `${location}.expected.retryable`);
      return {
        ...common,
        title: `the status and retry rules of ${code}`,
        section: 'HearthNet §5.5, §9',
        level: 'required',
        requires: 'error-codes',
        run: async (impl) => {
          const { retry_if_not_idempotent, ...facts } = await impl.errorCodeFacts!(code);
          assertEqual(facts, expected, `the rules of ${code}`);
          // Only if_idempotent depends on the capability, so a call to one that is not idempotent is
          // retried exactly when any call is.
          assertEqual(
            retry_if_not_idempotent,
            retryable,
            `whether ${code} is retried for a non-idempotent capability`,
          );
        },
      };
    }
    case 'decode': {
      const status = readNonNegativeInteger(entry['status'], `${location}.status`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      const message =
        'message' in expected ? readString(expected['message'], `${location}.expected.message`) : undefined;
      // What reference nodes send, and fields of the wrong type dropped, are leniency the contract advises.
      const lenient = entry.tags.includes('reference') || entry.tags.includes('lenient');
      return {
        ...common,
        title: `decodes the error of ${entry.id.replace(/^decode-/, '')} (HTTP ${status})`,
        section: 'HearthNet §5.4, §5.5',
        level: lenient ? 'recommended' : 'required',
        requires: 'error-decode',
        run: async (impl) => {
          const decoded = await impl.decodeError!(structuredClone(entry['body']), status);
          assertEqual(
            decodedFields(decoded),
            decodedFields(expected as unknown as WireErrorFacts),
            'decoded error',
          );
          if (message !== undefined) assertEqual(decoded.message, message, 'message');
        },
      };
    }
    case 'encode': {
      const error = readObject(entry['error'], `${location}.error`);
      readString(error['code'], `${location}.error.code`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      return {
        ...common,
        title: `encodes the body of ${entry.id.replace(/^encode-/, '')}`,
        section: 'HearthNet §5.4',
        level: 'required',
        requires: 'error-encode',
        run: async (impl) =>
          assertEqual(
            await impl.encodeError!(structuredClone(error) as unknown as WireErrorFacts),
            expected,
            'error body',
          ),
      };
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected code, decode or encode');
  }
}
