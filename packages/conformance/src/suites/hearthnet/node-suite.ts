import {
  base64Encode,
  canonicalJsonString,
  chunkBlob,
  generateKeyPair,
  type KeyPair,
  parseNodeId,
  signPayload,
} from '@agentwire/hearthnet';
import { putBlob, readBlob } from '@agentwire/hearthnet/blobs';
import {
  type CapabilityDescriptor,
  catalogueDescriptor,
  type HearthNetErrorCode,
  validatorsFor,
} from '@agentwire/hearthnet/capabilities';
import { createEvent } from '@agentwire/hearthnet/events';
import { buildNodeManifest, formatTimestamp } from '@agentwire/hearthnet/manifests';
import { PUBSUB_SUBSCRIBE_PATH } from '@agentwire/hearthnet/pubsub';
import {
  BUS_CALL_PATH,
  createHearthNetClient,
  EVENT_STREAM_CONTENT_TYPE,
  formatWireTimestamp,
  isMediaType,
  isResponseSignatureMandatory,
  isTerminalEvent,
  JSON_CONTENT_TYPE,
  newRequestId,
  type SseItem,
  SseParser,
  signRequestEnvelope,
  streamFrameValidator,
  verifyResponseEnvelope,
  WIRE_HEADERS,
} from '@agentwire/hearthnet/wire';
import { encodeHex, isJsonObject } from '@agentwire/internal';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { ConformanceError } from '../../errors.js';
import type { ConformanceCase, ConformanceLevel, ConformanceSuite } from '../../suite.js';
import { manifestCases } from './node-manifest-cases.js';
import type { HearthNetNodeSuiteContext, NodeSuiteCall, NodeSuiteCapabilities } from './node-suite-checks.js';
import {
  checkErrorBody,
  clip,
  expectError,
  expectStatus,
  NODE_SUITE_NAME,
  nodeCase,
  readJsonBody,
} from './node-suite-checks.js';
import { fetchHeads, postEvents, probeEvent, syncCases } from './node-sync-cases.js';
import { HEARTHNET_NODE_SUITE_VERSION } from './suite-version.js';

/** Options of {@link hearthnetNodeSuite}. */
export interface HearthNetNodeSuiteOptions {
  /** The node's base URL, e.g. `http://192.168.1.20:7080`; calls go to `/bus/v1/call`. */
  readonly baseUrl: string | URL;
  /** The caller's key pair: a member of the node's community, allowed to make the calls given. */
  readonly identity: KeyPair;
  /** The full community id sent as `X-HearthNet-Community`. */
  readonly community: string;
  /** The node id the node must answer as (`X-HearthNet-From`). Default: any node id. */
  readonly expectNodeId?: string;
  /** The calls to exercise. Default: `call` is a `market.post` of an offer. */
  readonly capabilities?: NodeSuiteCapabilities;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * How long the node gets to send a stream's first frame, to close a stream after its terminal
   * frame, and to serve a capability again after a stream of it was cancelled. Default 3000 ms.
   */
  readonly patienceMs?: number;
}

const DEFAULT_PATIENCE_MS = 3000;
const DEFAULT_MANIFEST_CLOCK_SKEW_MS = 5000;
/** The version the `subscribe.*` and `blobs.*` cases arrived in. */
const PUBSUB_AND_BLOBS_SINCE = '1.1.0';
/** The version the trust, major-version, stream-negotiation and further `subscribe.*` cases arrived in. */
const SINCE_1_3 = '1.3.0';
/** The §8 topic a `market.post.created` event is published on. */
const MARKET_POST_TOPIC = 'marketplace.post.created';
/** How old the timestamp of the stale-request case is: far outside any sane window. */
const STALE_BY_MS = 15 * 60_000;
const ABSENT_CAPABILITY = 'experimental.conformance_absent';
const REPLAY_CODES: readonly HearthNetErrorCode[] = ['invalid_signature', 'expired', 'bad_request'];
const DEFAULT_SUBSCRIBE_TOPIC = 'marketplace.post.created';
/**
 * How many events the no-silent-loss case pushes: more than a hub keeps of one topic by default
 * (agentwire's 256), so a node that drops old items shows how it says so.
 */
const WINDOW_PROBE_EVENTS = 300;
/** Events per `POST /sync/v1/events` of that case. */
const WINDOW_PROBE_BATCH = 100;
/** A local-only topic of contract §8: "never on the wire". */
const LOCAL_ONLY_TOPIC = 'emergency.mode.changed';
/** The blob the `blob-put` case sends: 150 random bytes in chunks of 64, so three chunks. */
const PUT_BLOB_BYTES = 150;
const PUT_CHUNK_BYTES = 64;

/** The default `call`: a `market.post` of an offer (what the suite calls when no capabilities are given). */
export const MARKET_POST_SAMPLE: NodeSuiteCall = {
  capability: 'market.post',
  input: { client_id: 'hearthnet-conformance-probe', category: 'offer', title: 'Conformance probe' },
};

/**
 * What the suite exercises when no capabilities are given: a `market.post` call, the manifest at
 * `GET /manifest` and the gossip endpoints (without pushing an event of its own).
 */
export const DEFAULT_NODE_SUITE_CAPABILITIES: NodeSuiteCapabilities = {
  call: MARKET_POST_SAMPLE,
  manifest: {},
  sync: {},
};

/**
 * A black-box suite for a live HearthNet node: it calls the node over HTTP (contract §5) with the
 * caller's identity and checks status codes, §5.4 error bodies, request and response signatures,
 * replay and timestamp protection, stream framing and termination, cancellation and
 * `capacity_exceeded`. Requests are built by hand where the point is to send something wrong.
 *
 * Capabilities (from `options.capabilities`): `call`, `stream`, `long-stream`, `capacity`,
 * `subscribe` (the long poll of §8: a wire topic answers, a local-only topic and another node's chat
 * topic are refused), `blob-read` (`file.read` of an unknown CID) and `blob-put` (a trusted caller's
 * `file.put` of a small blob, read back with `file.read`), `manifest` (`GET /manifest` answers a
 * manifest that passes every §6.1 rule, of the community called, of the node that answers the calls,
 * listing catalogue capabilities with their schema hashes), `sync` (`GET /sync/v1/heads`, and
 * `POST /sync/v1/events` refuses an event altered after signing and a body that is not JSON) and
 * `sync-push` (a member's signed event is accepted once and moves the head), and `revoked` (a call
 * signed by a node the community revoked answers 403 `revoked`). Without
 * `options.capabilities` the suite runs {@link DEFAULT_NODE_SUITE_CAPABILITIES}. The
 * response-signature case is `required` when `call` is a mutating capability (§5.2), `recommended`
 * otherwise; it checks agentwire's response envelope (`{capability, version, request_id, from,
 * timestamp, status, body}`), as §5.2 names no other. The cases post real calls: point the suite
 * at a test node or a test community.
 *
 * @example
 * ```ts
 * const report = await runSuite(
 *   hearthnetNodeSuite({
 *     baseUrl: 'http://127.0.0.1:7080',
 *     identity: member,
 *     community,
 *     expectNodeId: node.nodeId,
 *     capabilities: {
 *       call: { capability: 'market.post', input: { client_id: 'c1', category: 'offer', title: 'Wasser' } },
 *       longStream: { capability: 'llm.chat', params: { model: 'echo' }, input: { messages, max_tokens: 100_000 }, maxConcurrent: 2 },
 *     },
 *   }),
 * );
 * ```
 */
export function hearthnetNodeSuite(
  options: HearthNetNodeSuiteOptions,
): ConformanceSuite<HearthNetNodeSuiteContext> {
  const call = options?.capabilities === undefined ? MARKET_POST_SAMPLE : options.capabilities.call;
  const mutating = call !== undefined && isResponseSignatureMandatory(call.capability);
  return {
    name: NODE_SUITE_NAME,
    version: HEARTHNET_NODE_SUITE_VERSION,
    description:
      'A live node over HTTP: signed calls answered 200 with signed responses, §5.4 error bodies with ' +
      'their §5.5 statuses (unknown capability, bad input, tampered or foreign signatures, replays, ' +
      'stale timestamps), typed stream frames ending in exactly one terminal frame, cancelled streams ' +
      'that free the node, capacity_exceeded with retry_after_ms, a signed manifest at GET /manifest ' +
      'and the gossip endpoints of §7.6.',
    cases: cases(mutating ? 'required' : 'recommended'),
    setup: () => {
      const ctx = readOptions(options);
      const capabilities = new Set<string>();
      if (ctx.capabilities.call !== undefined) capabilities.add('call');
      if (ctx.capabilities.stream !== undefined) capabilities.add('stream');
      if (ctx.capabilities.longStream !== undefined) capabilities.add('long-stream');
      if (ctx.capabilities.longStream?.maxConcurrent !== undefined) capabilities.add('capacity');
      if (ctx.capabilities.subscribe !== undefined) capabilities.add('subscribe');
      if (ctx.capabilities.blobs !== undefined) capabilities.add('blob-read');
      if (ctx.capabilities.blobs?.put === true) capabilities.add('blob-put');
      if (ctx.capabilities.manifest !== undefined) capabilities.add('manifest');
      if (ctx.capabilities.sync !== undefined) capabilities.add('sync');
      if (ctx.capabilities.sync?.push === true) capabilities.add('sync-push');
      if (ctx.capabilities.sync?.invite === true) capabilities.add('sync-invite');
      if (ctx.capabilities.revoked !== undefined) capabilities.add('revoked');
      return { ctx, capabilities };
    },
  };
}

function readOptions(options: HearthNetNodeSuiteOptions): HearthNetNodeSuiteContext {
  const invalid = (message: string): never => {
    throw new ConformanceError('invalid_run_option', `hearthnetNodeSuite: ${message}`);
  };
  if (options === null || typeof options !== 'object') return invalid('options are required');
  let url: URL | undefined;
  let subscribeUrl: URL | undefined;
  try {
    url = new URL(BUS_CALL_PATH, options.baseUrl);
    subscribeUrl = new URL(PUBSUB_SUBSCRIBE_PATH, options.baseUrl);
  } catch {
    invalid(`baseUrl must be an absolute URL, got ${String(options.baseUrl)}`);
  }
  const { identity, community, expectNodeId } = options;
  if (
    identity === null ||
    typeof identity !== 'object' ||
    typeof identity.nodeId !== 'string' ||
    !(identity.secretKey instanceof Uint8Array)
  ) {
    invalid('identity must be a KeyPair');
  }
  if (typeof community !== 'string' || community === '') invalid('community must be a full community id');
  if (expectNodeId !== undefined) {
    try {
      parseNodeId(expectNodeId);
    } catch {
      invalid(`expectNodeId must be a full node id, got ${String(expectNodeId)}`);
    }
  }
  const capabilities = options.capabilities ?? DEFAULT_NODE_SUITE_CAPABILITIES;
  for (const key of ['call', 'stream', 'longStream'] as const) {
    const sample = capabilities[key];
    if (sample === undefined) continue;
    if (typeof sample?.capability !== 'string' || sample.input === null || typeof sample.input !== 'object') {
      invalid(`capabilities.${key} must be { capability, input }`);
    }
  }
  const topic = capabilities.subscribe?.topic;
  if (topic !== undefined && (typeof topic !== 'string' || topic === '')) {
    invalid('capabilities.subscribe.topic must be a topic name');
  }
  const put = capabilities.blobs?.put;
  if (put !== undefined && typeof put !== 'boolean') invalid('capabilities.blobs.put must be true or false');
  const maxConcurrent = capabilities.longStream?.maxConcurrent;
  if (maxConcurrent !== undefined && (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1)) {
    invalid(`capabilities.longStream.maxConcurrent must be a positive integer, got ${String(maxConcurrent)}`);
  }
  const revoked = capabilities.revoked;
  if (
    revoked !== undefined &&
    (revoked === null ||
      typeof revoked !== 'object' ||
      typeof revoked.nodeId !== 'string' ||
      !(revoked.secretKey instanceof Uint8Array))
  ) {
    invalid('capabilities.revoked must be a KeyPair');
  }
  const push = capabilities.sync?.push;
  if (push !== undefined && typeof push !== 'boolean')
    invalid('capabilities.sync.push must be true or false');
  const invite = capabilities.sync?.invite;
  if (invite !== undefined && typeof invite !== 'boolean')
    invalid('capabilities.sync.invite must be true or false');
  const manifestClockSkewMs = capabilities.manifest?.clockSkewMs ?? DEFAULT_MANIFEST_CLOCK_SKEW_MS;
  if (!Number.isSafeInteger(manifestClockSkewMs) || manifestClockSkewMs < 0) {
    invalid(
      `capabilities.manifest.clockSkewMs must be a count of milliseconds, got ${String(manifestClockSkewMs)}`,
    );
  }
  const patienceMs = options.patienceMs ?? DEFAULT_PATIENCE_MS;
  if (!Number.isSafeInteger(patienceMs) || patienceMs < 1) {
    invalid(`patienceMs must be a positive integer, got ${String(patienceMs)}`);
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') invalid('no fetch available: pass options.fetch');
  return {
    url: url as URL,
    subscribeUrl: subscribeUrl as URL,
    identity,
    community,
    expectNodeId,
    capabilities,
    fetch: fetchFunction,
    patienceMs,
    manifestClockSkewMs,
  };
}

type Ctx = HearthNetNodeSuiteContext;

function cases(responseSignatureLevel: ConformanceLevel): readonly ConformanceCase<Ctx>[] {
  return [
    nodeCase(
      'call.ok',
      'a valid signed call answers 200 with a JSON {output} body that echoes the request id',
      'HearthNet §5.1, §5.2',
      'required',
      'call',
      async (ctx) => {
        const call = ctx.capabilities.call!;
        const sent = signedCall(ctx, call);
        const response = await send(ctx, sent);
        await expectStatus(response, 200, 'a valid signed call');
        assertTrue(
          isMediaType(response.headers.get('Content-Type'), JSON_CONTENT_TYPE),
          `Content-Type is ${String(response.headers.get('Content-Type'))}, not ${JSON_CONTENT_TYPE}`,
        );
        assertEqual(response.headers.get(WIRE_HEADERS.requestId), sent.requestId, WIRE_HEADERS.requestId);
        checkFrom(ctx, response);
        const body = await readJsonBody(response);
        assertTrue(
          isJsonObject(body) && 'output' in body,
          `the body is not an {output, meta} object: ${clip(body)}`,
        );
        const descriptor = descriptorOf(call);
        const checked =
          descriptor === undefined ? undefined : validatorsFor(descriptor).response?.check(body);
        if (checked !== undefined && !checked.ok) {
          fail(
            `the ${call.capability} response does not match its schema: ${checked.issues[0]?.path}: ${checked.issues[0]?.message}`,
          );
        }
      },
    ),
    nodeCase(
      'call.response-signature',
      'the response carries X-HearthNet-Signature over the response envelope, by X-HearthNet-From',
      'HearthNet §5.2',
      responseSignatureLevel,
      'call',
      async (ctx) => {
        const sent = signedCall(ctx, ctx.capabilities.call!);
        const response = await send(ctx, sent);
        await expectStatus(response, 200, 'a valid signed call');
        const from = checkFrom(ctx, response);
        const signature = response.headers.get(WIRE_HEADERS.signature);
        const timestamp = response.headers.get(WIRE_HEADERS.timestamp);
        if (signature === null) fail(`the ${sent.capability} response carries no ${WIRE_HEADERS.signature}`);
        if (timestamp === null) fail(`the ${sent.capability} response carries no ${WIRE_HEADERS.timestamp}`);
        const verdict = verifyResponseEnvelope(
          {
            capability: sent.capability,
            version: sent.version,
            requestId: sent.requestId,
            from,
            timestamp,
            status: response.status,
            body: await readJsonBody(response),
          },
          signature,
        );
        assertTrue(
          verdict.valid,
          `the response signature does not verify under ${from} (${verdict.valid ? '' : verdict.reason})`,
        );
      },
    ),
    nodeCase(
      'errors.unknown-capability',
      'a capability the node does not offer answers 404 not_found with a §5.4 body',
      'HearthNet §5.4, §5.5, §9',
      'required',
      undefined,
      async (ctx) => {
        const sent = signedCall(ctx, { capability: ABSENT_CAPABILITY, input: {} });
        await expectError(await send(ctx, sent), ['not_found'], `a call of ${ABSENT_CAPABILITY}`, sent);
      },
    ),
    nodeCase(
      'errors.bad-request',
      'input the capability schema refuses answers 400 bad_request',
      'HearthNet §5.4, §5.5, §9',
      'required',
      'call',
      async (ctx) => {
        const call = ctx.capabilities.call!;
        const invalidInput =
          'invalidInput' in ctx.capabilities ? ctx.capabilities.invalidInput : 'not an object';
        const sent = signedCall(ctx, call, { body: { params: call.params ?? {}, input: invalidInput } });
        await expectError(await send(ctx, sent), ['bad_request'], 'a call with invalid input', sent);
      },
    ),
    nodeCase(
      'errors.not-member',
      'a call correctly signed by a node outside the community answers 401 unauthorized when the capability asks for a trust level',
      'HearthNet §3.2, §5.5, §9',
      'required',
      'call',
      async (ctx) => {
        const call = ctx.capabilities.call!;
        // A capability outside the catalogue has no trust level the suite knows of to refuse below.
        if (descriptorOf(call) === undefined) return;
        const sent = signedCall(ctx, call, { caller: generateKeyPair() });
        await expectError(
          await send(ctx, sent),
          ['unauthorized'],
          `a ${call.capability} call by a node that is not a member`,
          sent,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'errors.other-major',
      'a call of a major version the node does not offer answers 400 schema_mismatch with schema_hash_expected',
      'HearthNet §2.1, §5.4, §5.5',
      'required',
      'call',
      async (ctx) => {
        const call = ctx.capabilities.call!;
        const major = Number((call.version ?? '1.0').split('.')[0]);
        const version = `${major + 1}.0`;
        const sent = signedCall(ctx, { ...call, version });
        const body = await expectError(
          await send(ctx, sent),
          ['schema_mismatch'],
          `a call of ${call.capability}@${version} (the node offers major ${major})`,
          sent,
        );
        const alternatives = body['alt_capabilities'];
        if (Array.isArray(alternatives)) {
          assertTrue(
            alternatives.every(
              (entry) => typeof entry === 'string' && /^[a-z][a-z0-9_.-]*@\d+\.\d+$/.test(entry),
            ),
            `alt_capabilities are not name@major.minor (§5.4): ${clip(body)}`,
          );
        }
        const hash = body['schema_hash_expected'];
        assertTrue(
          typeof hash === 'string' && /^blake3:[0-9a-f]{64}$/.test(hash),
          `schema_mismatch carries no schema_hash_expected of the offered ${call.capability} (§5.4): ${clip(body)}`,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'errors.malformed-version',
      'a call whose X-HearthNet-Capability-Version is not "X.Y" answers 400 bad_request',
      'HearthNet §2.1, §5.4, §5.5, §9',
      'recommended',
      'call',
      async (ctx) => {
        const call = ctx.capabilities.call!;
        for (const version of ['x.y', '1']) {
          const sent = signedCall(ctx, { ...call, version });
          await expectError(
            await send(ctx, sent),
            ['bad_request'],
            `a call of ${call.capability} with X-HearthNet-Capability-Version ${version} (§2.1: "X.Y")`,
            sent,
          );
        }
      },
      SINCE_1_3,
    ),
    nodeCase(
      'errors.revoked',
      'a signed call by a node the community revoked answers 403 revoked',
      'HearthNet §5.4, §5.5, §9',
      'required',
      ['call', 'revoked'],
      async (ctx) => {
        const call = ctx.capabilities.call!;
        const sent = signedCall(ctx, call, { caller: ctx.capabilities.revoked! });
        await expectError(
          await send(ctx, sent),
          ['revoked'],
          `a ${call.capability} call by the revoked node ${ctx.capabilities.revoked!.nodeId}`,
          sent,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'errors.malformed-body',
      'a body that is not JSON answers a 4xx §5.4 body, and the node keeps serving',
      'HearthNet §5.4, §5.5',
      'recommended',
      undefined,
      async (ctx) => {
        const response = await ctx.fetch(ctx.url, {
          method: 'POST',
          headers: { 'Content-Type': JSON_CONTENT_TYPE, Accept: JSON_CONTENT_TYPE },
          body: '{"params": {}, "input": ',
        });
        await expectError(
          response,
          ['bad_request', 'invalid_signature', 'unauthorized'],
          'a truncated JSON body',
        );
        // Still serving: the next call gets an answer (whatever it is) instead of a refused connection.
        await (await send(ctx, signedCall(ctx, { capability: ABSENT_CAPABILITY, input: {} }))).text();
      },
    ),
    nodeCase(
      'signature.tampered',
      'a body or signature altered after signing answers 401 invalid_signature',
      'HearthNet §5.1, §10',
      'required',
      'call',
      async (ctx) => {
        const call = ctx.capabilities.call!;
        const body = requestBody(call);
        // The node receives the sample (valid for its schema); the signature covers another body.
        const alteredBody = signedCall(ctx, call, {
          signedBody: { ...body, input: { ...body.input, conformance_tamper: 1 } },
        });
        await expectError(
          await send(ctx, alteredBody),
          ['invalid_signature'],
          'a body altered after signing',
          alteredBody,
        );
        const alteredSignature = signedCall(ctx, call);
        alteredSignature.headers.set(WIRE_HEADERS.signature, flipCharacter(alteredSignature.signature));
        await expectError(
          await send(ctx, alteredSignature),
          ['invalid_signature'],
          'a signature with one character changed',
          alteredSignature,
        );
      },
    ),
    nodeCase(
      'signature.foreign-key',
      "a request signed by another key than X-HearthNet-From's answers 401 invalid_signature",
      'HearthNet §5.1',
      'required',
      'call',
      async (ctx) => {
        const sent = signedCall(ctx, ctx.capabilities.call!, { signer: generateKeyPair().secretKey });
        await expectError(
          await send(ctx, sent),
          ['invalid_signature'],
          `a request claiming to come from ${ctx.identity.nodeId}`,
          sent,
        );
      },
    ),
    nodeCase(
      'signature.missing',
      'a request without X-HearthNet-Signature answers 401',
      'HearthNet §5.1, §5.5',
      'required',
      'call',
      async (ctx) => {
        const sent = signedCall(ctx, ctx.capabilities.call!);
        sent.headers.delete(WIRE_HEADERS.signature);
        await expectError(
          await send(ctx, sent),
          ['invalid_signature', 'unauthorized'],
          'an unsigned request',
          sent,
        );
      },
    ),
    nodeCase(
      'signature.replay',
      'the same signed request sent twice is served once, then refused',
      'HearthNet §5.1',
      'recommended',
      'call',
      async (ctx) => {
        const sent = signedCall(ctx, ctx.capabilities.call!);
        await expectStatus(await send(ctx, sent), 200, 'the first delivery of a request');
        await expectError(await send(ctx, sent), REPLAY_CODES, 'the same request replayed', sent);
      },
    ),
    nodeCase(
      'signature.stale-timestamp',
      `a request signed with a timestamp ${STALE_BY_MS / 60_000} minutes old answers 410 expired`,
      'HearthNet §5.1, §9',
      'recommended',
      'call',
      async (ctx) => {
        const sent = signedCall(ctx, ctx.capabilities.call!, { timestampMs: Date.now() - STALE_BY_MS });
        await expectError(await send(ctx, sent), ['expired'], 'a request with a stale timestamp', sent);
      },
    ),
    nodeCase(
      'signature.malformed-timestamp',
      'a request correctly signed over an X-HearthNet-Timestamp that is no RFC 3339 time is refused, not served outside the window',
      'HearthNet §1.1, §5.1, §5.4',
      'required',
      'call',
      async (ctx) => {
        const sent = signedCall(ctx, ctx.capabilities.call!, { timestampText: 'yesterday' });
        await expectError(
          await send(ctx, sent),
          ['bad_request', 'expired', 'invalid_signature'],
          'a request with the timestamp "yesterday"',
          sent,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'stream.frames',
      'a stream answers 200 text/event-stream, echoes the request id, and every frame is typed JSON',
      'HearthNet §5.3',
      'required',
      'stream',
      async (ctx) => {
        const call = ctx.capabilities.stream!;
        const stream = await openStream(ctx, call);
        try {
          assertEqual(
            stream.response.headers.get(WIRE_HEADERS.requestId),
            stream.requestId,
            WIRE_HEADERS.requestId,
          );
          checkFrom(ctx, stream.response);
          const validate = streamFrameValidator(descriptorOf(call));
          let index = 0;
          for (;;) {
            const item = await stream.body.next(ctx.patienceMs, `frame ${index}`);
            if (item === undefined || item.type === 'comment') {
              if (item === undefined) return;
              continue;
            }
            const frame = { event: item.event, data: parseFrameData(item, index) };
            try {
              validate(frame);
            } catch (error) {
              fail(`frame ${index} is not a valid ${item.event} frame: ${(error as Error).message}`, error);
            }
            index += 1;
            if (isTerminalEvent(item.event)) return;
          }
        } finally {
          await stream.close();
        }
      },
    ),
    nodeCase(
      'stream.terminal',
      'a stream ends with exactly one terminal done or error frame, then the connection closes',
      'HearthNet §4.1, §5.3',
      'required',
      'stream',
      async (ctx) => {
        const stream = await openStream(ctx, ctx.capabilities.stream!);
        try {
          const events: string[] = [];
          for (;;) {
            const item = await stream.body.next(
              ctx.patienceMs,
              events.some(isTerminalEvent)
                ? 'the end of the stream after its terminal frame'
                : 'the next frame',
            );
            if (item === undefined) break;
            if (item.type === 'event') events.push(item.event);
          }
          const terminals = events.filter(isTerminalEvent);
          assertTrue(
            terminals.length === 1,
            `the stream sent ${terminals.length} terminal frames (events: ${events.join(', ') || 'none'})`,
          );
          assertTrue(
            isTerminalEvent(events.at(-1) ?? ''),
            `frames follow the terminal frame (events: ${events.join(', ')})`,
          );
        } finally {
          await stream.close();
        }
      },
    ),
    nodeCase(
      'stream.not-requested',
      'a streaming capability called with Accept: application/json alone, or with input.stream false where its schema has that flag, answers JSON, not an event stream',
      'HearthNet §4.1, §5.1, §5.2, §5.3',
      'recommended',
      'stream',
      async (ctx) => {
        const call = ctx.capabilities.stream!;
        const expectJson = async (sent: SignedCall, what: string) => {
          const response = await send(ctx, sent);
          const type = response.headers.get('Content-Type');
          await response.body?.cancel().catch(() => undefined);
          assertTrue(
            !isMediaType(type, EVENT_STREAM_CONTENT_TYPE) && isMediaType(type, JSON_CONTENT_TYPE),
            `${what} answered HTTP ${response.status} ${String(type)}`,
          );
        };
        await expectJson(
          signedCall(ctx, call),
          `a ${call.capability} call that accepts only ${JSON_CONTENT_TYPE}`,
        );
        if (hasInputStreamFlag(call)) {
          // §4.1: "stream": optional, default true; the non-stream response "only if stream:false".
          const body = requestBody(call);
          await expectJson(
            signedCall(ctx, call, {
              stream: true,
              body: { ...body, input: { ...body.input, stream: false } },
            }),
            `a ${call.capability} call with input.stream false`,
          );
        }
      },
      SINCE_1_3,
    ),
    nodeCase(
      'stream.abort',
      'after a caller cancels a stream mid-way, the node serves the same capability again',
      'HearthNet §4.1, §5.3',
      'required',
      'long-stream',
      async (ctx) => {
        const call = ctx.capabilities.longStream!;
        const first = await openStreamWhenFree(ctx, call);
        await first.firstFrame();
        await first.close();
        const again = await openStreamWhenFree(ctx, call);
        try {
          await again.firstFrame(`the first frame of a ${call.capability} stream after one was cancelled`);
        } finally {
          await again.close();
        }
        if (ctx.capabilities.call !== undefined) {
          await expectStatus(await send(ctx, signedCall(ctx, ctx.capabilities.call)), 200, 'a call after it');
        }
      },
    ),
    nodeCase(
      'capacity.retry-after',
      'one call over the declared max_concurrent answers capacity_exceeded with retry_after_ms',
      'HearthNet §5.4, §5.5, §9',
      'required',
      'capacity',
      async (ctx) => {
        const call = ctx.capabilities.longStream!;
        const open: OpenStream[] = [];
        try {
          for (let i = 0; i < call.maxConcurrent!; i += 1) {
            const stream = await openStreamWhenFree(ctx, call);
            open.push(stream);
            await stream.firstFrame();
          }
          const extra = signedCall(ctx, call, { stream: true });
          const response = await send(ctx, extra);
          let body: Record<string, unknown>;
          if (
            response.status === 200 &&
            isMediaType(response.headers.get('Content-Type'), EVENT_STREAM_CONTENT_TYPE)
          ) {
            // §5.5 lets a node that accepted the stream say it in an error frame instead.
            const stream = new SseBody(response.body!);
            const first = await stream.nextEvent(ctx.patienceMs, 'the first frame');
            await stream.cancel();
            assertTrue(
              first?.event === 'error',
              `the node declared max_concurrent ${call.maxConcurrent} but served call ${call.maxConcurrent! + 1}`,
            );
            body = checkErrorBody(parseFrameData(first, 0), ['capacity_exceeded'], 'the error frame');
          } else {
            body = await expectError(response, ['capacity_exceeded'], 'a call over max_concurrent', extra);
          }
          const retryAfter = body['retry_after_ms'];
          assertTrue(
            Number.isSafeInteger(retryAfter) && (retryAfter as number) >= 0,
            `capacity_exceeded carries no retry_after_ms (body: ${clip(body)})`,
          );
        } finally {
          await Promise.all(open.map((stream) => stream.close()));
        }
      },
    ),
    nodeCase(
      'subscribe.poll',
      'a signed long poll of a wire topic answers 200 with {items, cursor, gap} of that topic',
      'HearthNet §5.1, §8',
      'required',
      'subscribe',
      async (ctx) => {
        const topic = ctx.capabilities.subscribe?.topic ?? DEFAULT_SUBSCRIBE_TOPIC;
        const sent = signedSubscribe(ctx, topic);
        const response = await ctx.fetch(sent.url, { headers: sent.headers });
        await expectStatus(response, 200, `a long poll of ${topic}`);
        checkFrom(ctx, response);
        assertEqual(response.headers.get(WIRE_HEADERS.requestId), sent.requestId, WIRE_HEADERS.requestId);
        const body = await readJsonBody(response);
        if (!isJsonObject(body) || !Array.isArray(body['items']))
          fail(`the answer is not {items, cursor, gap}: ${clip(body)}`);
        const cursor = body['cursor'];
        assertTrue(
          Number.isSafeInteger(cursor) && (cursor as number) >= 0,
          `cursor is not a count: ${clip(body)}`,
        );
        assertTrue(typeof body['gap'] === 'boolean', `gap is not a boolean: ${clip(body)}`);
        for (const [index, item] of body['items'].entries()) {
          assertTrue(
            isJsonObject(item) &&
              Number.isSafeInteger(item['seq']) &&
              item['topic'] === topic &&
              'payload' in item,
            `item ${index} is not {seq, topic: ${topic}, payload}: ${clip(item)}`,
          );
        }
      },
      PUBSUB_AND_BLOBS_SINCE,
    ),
    nodeCase(
      'subscribe.local-only-refused',
      `a long poll of the local-only topic ${LOCAL_ONLY_TOPIC} is refused with a §5.4 error`,
      'HearthNet §5.4, §8',
      'required',
      'subscribe',
      async (ctx) => {
        const sent = signedSubscribe(ctx, LOCAL_ONLY_TOPIC);
        await expectError(
          await ctx.fetch(sent.url, { headers: sent.headers }),
          ['bad_request', 'not_found', 'unauthorized'],
          `a long poll of ${LOCAL_ONLY_TOPIC}`,
        );
      },
      PUBSUB_AND_BLOBS_SINCE,
    ),
    nodeCase(
      'subscribe.other-recipient-refused',
      "a long poll of another node's chat.message.<recipient> topic answers 401 unauthorized",
      'HearthNet §5.5, §8',
      'required',
      'subscribe',
      async (ctx) => {
        const topic = `chat.message.${generateKeyPair().nodeId}`;
        const sent = signedSubscribe(ctx, topic);
        await expectError(
          await ctx.fetch(sent.url, { headers: sent.headers }),
          ['unauthorized'],
          "a long poll of another node's chat topic",
        );
      },
      PUBSUB_AND_BLOBS_SINCE,
    ),
    nodeCase(
      'subscribe.delivers',
      'events accepted by sync reach long polls from an earlier cursor in order, limit by limit, each once, and wake a waiting poll',
      'HearthNet §7.6, §8',
      'required',
      ['subscribe', 'sync-push'],
      async (ctx) => {
        const topic = MARKET_POST_TOPIC;
        const waitMs = 4 * ctx.patienceMs;
        // A poll that waits and sees nothing published still answers when its wait ends.
        const start = await poll(ctx, topic, { wait_ms: '100' });
        expectItems(start, [], 'a poll from now on that waited 100 ms while nothing was published');
        const head = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        const first = probeEvent(ctx, head + 1);
        const second = probeEvent(ctx, head + 2);
        await pushAccepted(ctx, [first, second]);
        // Items are pending: a poll that may wait answers at once, within the patience.
        const one = await poll(ctx, topic, {
          cursor: String(start.cursor),
          limit: '1',
          wait_ms: String(waitMs),
        });
        expectItems(
          one,
          [first.event_id],
          `a poll with limit=1 from cursor ${start.cursor} (before two events were pushed)`,
          ctx.patienceMs,
        );
        const rest = await poll(ctx, topic, { cursor: String(one.cursor), wait_ms: String(waitMs) });
        expectItems(
          rest,
          [second.event_id],
          `a poll from the cursor ${one.cursor} the limit=1 answer gave`,
          ctx.patienceMs,
        );
        const none = await poll(ctx, topic, { cursor: String(rest.cursor) });
        expectItems(none, [], `a poll from the cursor ${rest.cursor} after both events`);
        // A topic nothing was published on since the first cursor.
        const quiet = await poll(ctx, 'marketplace.post.expired', { cursor: String(start.cursor) });
        expectItems(quiet, [], `a poll of marketplace.post.expired from cursor ${start.cursor}`);
        const waiting = poll(ctx, topic, { cursor: String(none.cursor), wait_ms: String(waitMs) });
        await sleep(50);
        const third = probeEvent(ctx, head + 3);
        await pushAccepted(ctx, [third]);
        expectItems(
          await waiting,
          [third.event_id],
          `a poll waiting up to ${waitMs} ms when an event was pushed`,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'subscribe.unknown-cursor',
      'a long poll from a cursor the node never gave answers 200 with gap: true',
      'HearthNet §8',
      'recommended',
      'subscribe',
      async (ctx) => {
        const topic = ctx.capabilities.subscribe?.topic ?? DEFAULT_SUBSCRIBE_TOPIC;
        const now = await poll(ctx, topic, {});
        const ahead = now.cursor + 1_000_000;
        // A gap is news: a poll that may wait answers it at once.
        const answer = await poll(ctx, topic, { cursor: String(ahead), wait_ms: String(4 * ctx.patienceMs) });
        assertTrue(
          answer.gap && answer.items.length === 0 && answer.ms <= ctx.patienceMs,
          `a poll from cursor ${ahead}, past the node's ${now.cursor}, answered gap: ${answer.gap} with ${answer.items.length} items after ${answer.ms} ms`,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'subscribe.gap-resume',
      'a long poll from the cursor a gap answer gave answers without a gap, on a topic with items and on one nothing was published on',
      'HearthNet §8',
      'recommended',
      'subscribe',
      async (ctx) => {
        const configured = ctx.capabilities.subscribe?.topic ?? DEFAULT_SUBSCRIBE_TOPIC;
        // The caller's own chat topic: only it may read it, so nothing is likely published there.
        for (const topic of [configured, `chat.message.${ctx.identity.nodeId}`]) {
          const now = await poll(ctx, topic, {});
          const ahead = now.cursor + 1_000_000;
          const gap = await poll(ctx, topic, { cursor: String(ahead) });
          assertTrue(
            gap.gap && gap.items.length === 0,
            `a poll of ${topic} from cursor ${ahead}, past the node's ${now.cursor}, answered gap: ${gap.gap} with ${gap.items.length} items`,
          );
          // The cursor of a gap is where the held items start: a client resumes from it.
          const resumed = await poll(ctx, topic, { cursor: String(gap.cursor) });
          assertTrue(
            !resumed.gap,
            `a poll of ${topic} from cursor ${gap.cursor}, the cursor its gap answer gave, answered gap: true again`,
          );
        }
      },
      SINCE_1_3,
    ),
    nodeCase(
      'subscribe.no-silent-loss',
      `after ${WINDOW_PROBE_EVENTS} events are pushed, a long poll from the cursor before them answers them from the first, or gap: true — never later items alone`,
      'HearthNet §7.6, §8',
      'recommended',
      ['subscribe', 'sync-push'],
      async (ctx) => {
        const topic = MARKET_POST_TOPIC;
        const before = await poll(ctx, topic, {});
        const head = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        const events = Array.from({ length: WINDOW_PROBE_EVENTS }, (_, index) =>
          probeEvent(ctx, head + 1 + index),
        );
        for (let start = 0; start < events.length; start += WINDOW_PROBE_BATCH) {
          await pushAccepted(ctx, events.slice(start, start + WINDOW_PROBE_BATCH));
        }
        const answer = await poll(ctx, topic, { cursor: String(before.cursor), limit: '1' });
        if (answer.gap) return;
        assertEqual(
          eventIdsOf(answer.items),
          [events[0]!.event_id],
          `a poll with limit=1 from cursor ${before.cursor} (before ${WINDOW_PROBE_EVENTS} events were pushed) answered gap: false`,
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'subscribe.other-community-refused',
      'a long poll signed for another community answers 401 unauthorized',
      'HearthNet §5.1, §5.5, §8',
      'required',
      'subscribe',
      async (ctx) => {
        const topic = ctx.capabilities.subscribe?.topic ?? DEFAULT_SUBSCRIBE_TOPIC;
        const sent = signedSubscribe(ctx, topic, { community: generateKeyPair().nodeId });
        await expectError(
          await ctx.fetch(sent.url, { headers: sent.headers }),
          ['unauthorized'],
          'a long poll signed for another community',
        );
      },
      SINCE_1_3,
    ),
    nodeCase(
      'subscribe.malformed-query',
      'a long poll with an unknown or repeated parameter, no topic, a limit of 0 or a cursor that is not a decimal count answers 400 bad_request',
      'HearthNet §5.4, §8, §9',
      'recommended',
      'subscribe',
      async (ctx) => {
        const topic = ctx.capabilities.subscribe?.topic ?? DEFAULT_SUBSCRIBE_TOPIC;
        const refused = async (sent: SignedSubscribe, what: string) => {
          await expectError(await ctx.fetch(sent.url, { headers: sent.headers }), ['bad_request'], what);
        };
        await refused(
          signedSubscribe(ctx, topic, { parameters: { since: '0' } }),
          'an unknown parameter since',
        );
        await refused(signedSubscribe(ctx, ''), 'an empty topic');
        await refused(signedSubscribe(ctx, undefined), 'a query without a topic parameter');
        await refused(signedSubscribe(ctx, topic, { parameters: { limit: '0' } }), 'limit=0');
        for (const cursor of ['-1', '0x10', 'abc']) {
          await refused(signedSubscribe(ctx, topic, { parameters: { cursor } }), `cursor=${cursor}`);
        }
        const repeated = signedSubscribe(ctx, topic);
        repeated.url.searchParams.append('topic', topic);
        await refused(repeated, 'the topic given twice');
      },
      SINCE_1_3,
    ),
    nodeCase(
      'blobs.read-unknown',
      'file.read of a CID the node does not hold answers 404 not_found',
      'HearthNet §4.7, §5.4',
      'required',
      'blob-read',
      async (ctx) => {
        const cid = `blake3:${encodeHex(crypto.getRandomValues(new Uint8Array(32)))}`;
        const sent = signedCall(ctx, { capability: 'file.read', input: { cid } }, { stream: true });
        const response = await send(ctx, sent);
        if (
          response.status === 200 &&
          isMediaType(response.headers.get('Content-Type'), EVENT_STREAM_CONTENT_TYPE)
        ) {
          // §5.5 lets a node that opened the stream say it in an error frame instead.
          const stream = new SseBody(response.body!);
          const first = await stream.nextEvent(ctx.patienceMs, 'the first frame');
          await stream.cancel();
          assertTrue(
            first?.event === 'error',
            `file.read of an unknown CID streamed ${String(first?.event)}`,
          );
          checkErrorBody(parseFrameData(first, 0), ['not_found'], 'the error frame');
          return;
        }
        await expectError(response, ['not_found'], 'file.read of an unknown CID', sent);
      },
      PUBSUB_AND_BLOBS_SINCE,
    ),
    nodeCase(
      'blobs.put-read',
      'file.put of a small blob asks for every chunk, file.read returns it byte for byte, a second put asks for none',
      'HearthNet §4.7, §4.10',
      'required',
      'blob-put',
      async (ctx) => {
        const client = createHearthNetClient({
          identity: ctx.identity,
          community: ctx.community,
          node: ctx.url,
          fetch: ctx.fetch,
          ...(ctx.expectNodeId === undefined ? {} : { peer: ctx.expectNodeId }),
        });
        const bytes = crypto.getRandomValues(new Uint8Array(PUT_BLOB_BYTES));
        const first = await putBlob(client, bytes, { chunkSizeBytes: PUT_CHUNK_BYTES });
        const chunks = first.manifest.chunks.map((chunk) => chunk.i);
        assertEqual([...first.needed], chunks, 'needed of a blob the node has never seen');
        assertEqual(first.received, chunks.length, 'received');
        const read = await readBlob(client, first.manifest.cid);
        assertEqual(encodeHex(read.bytes), encodeHex(bytes), `the blob read back (${first.manifest.cid})`);
        const again = await putBlob(client, bytes, { chunkSizeBytes: PUT_CHUNK_BYTES });
        assertEqual([...again.needed], [], 'needed of a blob the node holds');
      },
      PUBSUB_AND_BLOBS_SINCE,
    ),
    nodeCase(
      'blobs.put-client-frames',
      'a file.put client stream is read whatever the case of its media type and the space before its parameters, takes an ack frame among the chunks, and a malformed ack or chunk frame is refused with bad_request',
      'HearthNet §4.10, §5.3, §5.5, §9',
      'recommended',
      'blob-put',
      async (ctx) => {
        // RFC 9110 §8.3.1: media types are case-insensitive, and whitespace may come before a parameter.
        const typed = await putByHand(ctx, [], 'Text/Event-Stream ; charset=utf-8');
        expectPutDone(typed, 'a file.put sent with Content-Type "Text/Event-Stream ; charset=utf-8"');
        // §5.3: ack {"upto": N} travels client → server; a node without back-pressure may ignore it.
        const acked = await putByHand(ctx, [{ event: 'ack', data: { upto: 0 } }]);
        expectPutDone(acked, 'a file.put whose client frames hold ack {"upto": 0} before the chunk');
        for (const [frame, what] of [
          [{ event: 'ack', data: { upto: 'all' } }, 'an ack frame whose upto is no count'],
          [{ event: 'chunk', data: null }, 'a chunk frame whose data is null'],
        ] as const) {
          const refused = await putByHand(ctx, [frame], undefined, { withoutChunk: frame.event === 'chunk' });
          expectPutRefused(refused, `a file.put with ${what}`);
        }
      },
      SINCE_1_3,
    ),
    ...manifestCases((ctx) =>
      send(ctx, signedCall(ctx, ctx.capabilities.call ?? { capability: ABSENT_CAPABILITY, input: {} })),
    ),
    ...syncCases(),
    nodeCase(
      'sync.membership-below-head',
      "an invite and a join pushed at lamports below the community's head make a node a member: its call, refused before, is answered",
      'HearthNet §7.2, §7.4, §7.6',
      'recommended',
      ['call', 'sync-invite'],
      async (ctx) => {
        const call = ctx.capabilities.call!;
        const newcomer = generateKeyPair();
        // Two probes first, so that the invite comes after every event the caller's own membership rests on.
        const head = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        await pushAccepted(ctx, [probeEvent(ctx, head + 1), probeEvent(ctx, head + 2)]);
        const before = signedCall(ctx, call, { caller: newcomer });
        await expectError(
          await send(ctx, before),
          ['unauthorized'],
          `a ${call.capability} call by ${newcomer.nodeId}, not yet invited`,
          before,
        );
        const top = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        const invite = createEvent(
          {
            community_id: ctx.community,
            event_type: 'community.member.invited',
            data: {
              invitee_node_id: newcomer.nodeId,
              display_name: 'conformance newcomer',
              initial_level: 'member',
              expires_at: formatTimestamp(Date.now() + 3_600_000),
            },
            lamport: head + 1,
          },
          ctx.identity,
        );
        const joined = createEvent(
          {
            community_id: ctx.community,
            event_type: 'community.member.joined',
            data: {
              invite_event_id: invite.event_id,
              node_manifest: buildNodeManifest(
                {
                  display_name: 'conformance newcomer',
                  community_id: ctx.community,
                  profile: 'spark',
                  endpoints: [],
                  capabilities: [],
                },
                newcomer,
              ),
            },
            lamport: head + 2,
          },
          newcomer,
        );
        await pushAccepted(ctx, [invite, joined]);
        const after = (await fetchHeads(ctx)).get(ctx.community) ?? 0;
        assertEqual(after, top, 'the head after an invite and a join below it');
        const response = await send(ctx, signedCall(ctx, call, { caller: newcomer }));
        await expectStatus(
          response,
          200,
          `a ${call.capability} call by ${newcomer.nodeId} after its invite and join (lamports ${head + 1}, ${head + 2}, head ${top}) were accepted`,
        );
      },
      SINCE_1_3,
    ),
  ];
}

/** A request ready to send, with what its signature covers. */
interface SignedCall {
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  readonly signature: string;
  readonly headers: Headers;
  readonly body: string;
}

interface SignOptions {
  /** Ask for an event stream. */
  readonly stream?: boolean;
  /** The body sent. Default `{params, input}` of the call. */
  readonly body?: unknown;
  /** The body the signature covers. Default: the body sent. */
  readonly signedBody?: unknown;
  /** The signing key. Default the identity's; `X-HearthNet-From` stays the identity's node id. */
  readonly signer?: Uint8Array;
  /** The signing time, epoch ms. Default now. */
  readonly timestampMs?: number;
  /** Another caller: its node id is `X-HearthNet-From` and its key signs. Default the identity. */
  readonly caller?: KeyPair;
  /** The `X-HearthNet-Timestamp` text, signed as it is (even when it is no timestamp). Default from `timestampMs`. */
  readonly timestampText?: string;
}

function requestBody(call: NodeSuiteCall): {
  params: Record<string, unknown>;
  input: Record<string, unknown>;
} {
  return { params: { ...call.params }, input: { ...call.input } };
}

/** A §5.1 request: the `X-HearthNet-*` headers and the canonical JSON body, signed over the envelope. */
function signedCall(ctx: Ctx, call: NodeSuiteCall, options: SignOptions = {}): SignedCall {
  const version = call.version ?? '1.0';
  const requestId = newRequestId();
  const timestamp = options.timestampText ?? formatWireTimestamp(options.timestampMs ?? Date.now());
  const body = options.body ?? requestBody(call);
  const fields = {
    capability: call.capability,
    version,
    requestId,
    from: (options.caller ?? ctx.identity).nodeId,
    community: ctx.community,
    timestamp,
  };
  const signer = options.signer ?? options.caller ?? ctx.identity;
  const signed =
    options.timestampText === undefined
      ? signRequestEnvelope({ ...fields, body: options.signedBody ?? body }, signer)
      : // signRequestEnvelope refuses a malformed timestamp: sign the §5.1 envelope as it stands.
        signPayload(
          {
            capability: fields.capability,
            version: fields.version,
            request_id: fields.requestId,
            from: fields.from,
            community: fields.community,
            timestamp,
            body: options.signedBody ?? body,
          },
          signer,
        );
  const headers = new Headers({
    'Content-Type': JSON_CONTENT_TYPE,
    // A stream call lists both types, in the order of the §5.1 example.
    Accept:
      options.stream === true ? `${JSON_CONTENT_TYPE}, ${EVENT_STREAM_CONTENT_TYPE}` : JSON_CONTENT_TYPE,
    [WIRE_HEADERS.capability]: call.capability,
    [WIRE_HEADERS.capabilityVersion]: version,
    [WIRE_HEADERS.requestId]: requestId,
    [WIRE_HEADERS.from]: fields.from,
    [WIRE_HEADERS.community]: ctx.community,
    [WIRE_HEADERS.timestamp]: timestamp,
    [WIRE_HEADERS.signature]: signed.signature,
  });
  return {
    capability: call.capability,
    version,
    requestId,
    signature: signed.signature,
    headers,
    body: canonicalJsonString(options.signedBody === undefined ? signed.body : body),
  };
}

/** A signed long poll, ready to send: the URL with its query, and the §5.1 headers. */
interface SignedSubscribe {
  readonly url: URL;
  readonly requestId: string;
  readonly headers: Headers;
}

/**
 * What a long poll signs in place of a capability and version, written out rather than taken from the
 * SDK, so that a node verifying over other values fails the `subscribe.*` cases.
 */
const SUBSCRIBE_ROUTE = { capability: 'pubsub.subscribe', version: '1.0' } as const;

interface SubscribeOptions {
  /** Further query parameters (`cursor`, `limit`, `wait_ms`, …), signed with the rest. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** The community signed and sent. Default the suite's. */
  readonly community?: string;
}

/**
 * A `GET /pubsub/v1/subscribe?topic=…&wait_ms=0` signed as agentwire signs it (contract §5.1 names no
 * GET form): the envelope's `capability`/`version` are `pubsub.subscribe`/`1.0` and its `body` the
 * query parameters as strings. `wait_ms=0` makes the node answer at once unless `parameters` say otherwise.
 * A `topic` of `undefined` sends no `topic` parameter at all.
 */
function signedSubscribe(
  ctx: Ctx,
  topic: string | undefined,
  options: SubscribeOptions = {},
): SignedSubscribe {
  const parameters: Record<string, string> = {
    ...(topic === undefined ? {} : { topic }),
    wait_ms: '0',
    ...options.parameters,
  };
  const community = options.community ?? ctx.community;
  const requestId = newRequestId();
  const timestamp = formatWireTimestamp(Date.now());
  const { signature } = signRequestEnvelope(
    {
      ...SUBSCRIBE_ROUTE,
      requestId,
      from: ctx.identity.nodeId,
      community,
      timestamp,
      body: parameters,
    },
    ctx.identity,
  );
  const url = new URL(ctx.subscribeUrl);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  const headers = new Headers({
    Accept: JSON_CONTENT_TYPE,
    [WIRE_HEADERS.capability]: SUBSCRIBE_ROUTE.capability,
    [WIRE_HEADERS.capabilityVersion]: SUBSCRIBE_ROUTE.version,
    [WIRE_HEADERS.requestId]: requestId,
    [WIRE_HEADERS.from]: ctx.identity.nodeId,
    [WIRE_HEADERS.community]: community,
    [WIRE_HEADERS.timestamp]: timestamp,
    [WIRE_HEADERS.signature]: signature,
  });
  return { url, requestId, headers };
}

/** A `{items, cursor, gap}` answer of a long poll. */
interface PollAnswer {
  readonly items: readonly Record<string, unknown>[];
  readonly cursor: number;
  readonly gap: boolean;
  /** How long the node took to answer. */
  readonly ms: number;
}

/** Checks a poll answer: no gap, the items' event ids, and (with `withinMs`) that it came at once. */
function expectItems(answer: PollAnswer, eventIds: readonly string[], what: string, withinMs?: number): void {
  assertTrue(!answer.gap, `${what}: answered gap: true`);
  assertEqual(eventIdsOf(answer.items), [...eventIds], `${what}: the event ids of its items`);
  if (withinMs !== undefined) {
    assertTrue(answer.ms <= withinMs, `${what}: answered after ${answer.ms} ms although items were pending`);
  }
}

/** A signed long poll that must answer 200 `{items, cursor, gap}` with items of `topic` after the cursor asked from. */
async function poll(
  ctx: Ctx,
  topic: string,
  parameters: Readonly<Record<string, string>>,
): Promise<PollAnswer> {
  const sent = signedSubscribe(ctx, topic, { parameters });
  const what = `a long poll of ${topic} ${JSON.stringify(parameters)}`;
  const started = Date.now();
  const response = await ctx.fetch(sent.url, { headers: sent.headers });
  await expectStatus(response, 200, what);
  const body = await readJsonBody(response);
  const ms = Date.now() - started;
  if (!isJsonObject(body) || !Array.isArray(body['items']))
    fail(`${what}: the answer is not {items, cursor, gap}: ${clip(body)}`);
  const { cursor, gap } = body;
  assertTrue(
    Number.isSafeInteger(cursor) && (cursor as number) >= 0,
    `${what}: cursor is not a count: ${clip(body)}`,
  );
  assertTrue(typeof gap === 'boolean', `${what}: gap is not a boolean: ${clip(body)}`);
  const after = parameters['cursor'] === undefined ? undefined : Number(parameters['cursor']);
  let previous = after ?? -1;
  for (const [index, item] of body['items'].entries()) {
    assertTrue(
      isJsonObject(item) && Number.isSafeInteger(item['seq']) && item['topic'] === topic && 'payload' in item,
      `${what}: item ${index} is not {seq, topic: ${topic}, payload}: ${clip(item)}`,
    );
    assertTrue(
      (item['seq'] as number) > previous,
      `${what}: item ${index} has seq ${String(item['seq'])}, not above ${previous} (the cursor asked from, or the item before)`,
    );
    previous = item['seq'] as number;
  }
  return {
    items: body['items'] as Record<string, unknown>[],
    cursor: cursor as number,
    gap: gap as boolean,
    ms,
  };
}

/** The `event_id`s of poll items whose payload is an event envelope (§8). */
function eventIdsOf(items: readonly Record<string, unknown>[]): unknown[] {
  return items.map((item) => (isJsonObject(item['payload']) ? item['payload']['event_id'] : item['payload']));
}

/** Pushes events through `POST /sync/v1/events` and fails unless the node accepts each. */
async function pushAccepted(ctx: Ctx, events: readonly { readonly event_id: string }[]): Promise<void> {
  const result = await postEvents(ctx, events);
  for (const event of events) {
    assertTrue(
      Array.isArray(result.accepted)
        ? result.accepted.includes(event.event_id)
        : result.accepted === events.length,
      `a member's signed event ${event.event_id} was not accepted: ${clip(result.body)}`,
    );
  }
}

function send(ctx: Ctx, call: SignedCall, signal?: AbortSignal): Promise<Response> {
  return ctx.fetch(ctx.url, {
    method: 'POST',
    headers: call.headers,
    body: call.body,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Whether the catalogue's request schema of a call has the `input.stream` flag (`llm.chat` §4.1). */
function hasInputStreamFlag(call: NodeSuiteCall): boolean {
  const schema = descriptorOf(call)?.requestSchema as Record<string, unknown> | undefined;
  const properties = (value: unknown) =>
    isJsonObject(value) && isJsonObject(value['properties']) ? value['properties'] : undefined;
  const input = properties(schema)?.['input'];
  return properties(input)?.['stream'] !== undefined;
}

/** The catalogue descriptor of a call, when the catalogue has its major version. */
function descriptorOf(call: NodeSuiteCall): CapabilityDescriptor | undefined {
  const descriptor = catalogueDescriptor(call.capability);
  const major = (version: string) => version.split('.')[0];
  return descriptor !== undefined && major(descriptor.version) === major(call.version ?? '1.0')
    ? descriptor
    : undefined;
}

/** Checks `X-HearthNet-From` (a node id; `expectNodeId` when given) and returns it. */
function checkFrom(ctx: Ctx, response: Response): string {
  const from = response.headers.get(WIRE_HEADERS.from);
  if (from === null) fail(`the response carries no ${WIRE_HEADERS.from}`);
  try {
    parseNodeId(from);
  } catch (error) {
    fail(`${WIRE_HEADERS.from} is not a full node id: ${from}`, error);
  }
  if (ctx.expectNodeId !== undefined) assertEqual(from, ctx.expectNodeId, WIRE_HEADERS.from);
  return from;
}

function parseFrameData(item: { readonly event: string; readonly data: string }, index: number): unknown {
  try {
    return JSON.parse(item.data);
  } catch (error) {
    return fail(`frame ${index} (${item.event}) data is not JSON: ${clip(item.data)}`, error);
  }
}

/** A stream call the node accepted, and how to end it from the caller's side. */
interface OpenStream {
  readonly requestId: string;
  readonly response: Response;
  readonly body: SseBody;
  /** Waits for the first event (comments skipped); fails, naming `what`, when none comes within the patience. */
  firstFrame(what?: string): Promise<void>;
  /** Aborts the request: the connection closes, as when a user stops reading. */
  close(): Promise<void>;
}

async function openStream(ctx: Ctx, call: NodeSuiteCall): Promise<OpenStream> {
  const opened = await tryOpenStream(ctx, call);
  if ('stream' in opened) return opened.stream;
  return fail(`a stream call of ${call.capability} answered HTTP ${opened.status} ${clip(opened.body)}`);
}

/**
 * Opens a stream, retrying while the node answers `capacity_exceeded` or `rate_limited` (a slot
 * a previous case cancelled may take a moment to free) for up to the patience.
 */
async function openStreamWhenFree(ctx: Ctx, call: NodeSuiteCall): Promise<OpenStream> {
  const deadline = Date.now() + ctx.patienceMs;
  for (;;) {
    const opened = await tryOpenStream(ctx, call);
    if ('stream' in opened) return opened.stream;
    const code = isJsonObject(opened.body) ? opened.body['error'] : undefined;
    const busy = code === 'capacity_exceeded' || code === 'rate_limited';
    if (!busy)
      fail(`a stream call of ${call.capability} answered HTTP ${opened.status} ${clip(opened.body)}`);
    if (Date.now() >= deadline) {
      fail(
        `${call.capability} still answered ${String(code)} ${ctx.patienceMs} ms after earlier streams were cancelled`,
      );
    }
    await sleep(25);
  }
}

async function tryOpenStream(
  ctx: Ctx,
  call: NodeSuiteCall,
): Promise<{ readonly stream: OpenStream } | { readonly status: number; readonly body: unknown }> {
  const sent = signedCall(ctx, call, { stream: true });
  const controller = new AbortController();
  const response = await send(ctx, sent, controller.signal);
  const isStream = isMediaType(response.headers.get('Content-Type'), EVENT_STREAM_CONTENT_TYPE);
  if (response.status !== 200 || !isStream || response.body === null) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Reported as text.
    }
    return { status: response.status, body: isStream ? `(an event stream) ${text}` : body };
  }
  const body = new SseBody(response.body);
  return {
    stream: {
      requestId: sent.requestId,
      response,
      body,
      firstFrame: async (what = `the first frame of ${call.capability}`) => {
        const first = await body.nextEvent(ctx.patienceMs, what);
        if (first === undefined) fail(`the ${call.capability} stream ended without a frame`);
      },
      close: async () => {
        controller.abort(new Error('the conformance suite closed the stream'));
        await body.cancel();
      },
    },
  };
}

/** The SSE items of a response body, read one at a time with a deadline each. */
class SseBody {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #parser = new SseParser();
  readonly #queued: SseItem[] = [];
  #ended = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next item, or `undefined` at the end of the body; fails when nothing comes within `ms`. */
  async next(ms: number, what: string): Promise<SseItem | undefined> {
    while (this.#queued.length === 0 && !this.#ended) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), ms);
      });
      const read = await Promise.race([this.#reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (read === 'timeout') fail(`waited ${ms} ms for ${what}`);
      try {
        if (read.done) {
          this.#ended = true;
          this.#queued.push(...this.#parser.finish());
        } else {
          this.#queued.push(...this.#parser.push(read.value));
        }
      } catch (error) {
        fail(`the event stream is malformed: ${(error as Error).message}`, error);
      }
    }
    return this.#queued.shift();
  }

  /** The next event, comments (keepalives) skipped. */
  async nextEvent(ms: number, what: string): Promise<Extract<SseItem, { type: 'event' }> | undefined> {
    for (;;) {
      const item = await this.next(ms, what);
      if (item === undefined || item.type === 'event') return item;
    }
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => undefined);
  }
}

/** What a hand-written `file.put` client stream got back: the frames of a stream, or an HTTP error. */
type PutAnswer =
  | {
      readonly kind: 'stream';
      readonly frames: readonly { readonly event: string; readonly data: unknown }[];
    }
  | { readonly kind: 'error'; readonly status: number; readonly body: unknown };

/**
 * A `file.put` of a fresh one-chunk blob written by hand as agentwire's client stream (docs/hearthnet.md,
 * client streams): the signed call body as the `request` frame, then `before`, then the chunk (unless
 * `withoutChunk`), all sent at once. Reads the answer to its end.
 */
async function putByHand(
  ctx: Ctx,
  before: readonly { readonly event: string; readonly data: unknown }[],
  contentType: string = EVENT_STREAM_CONTENT_TYPE,
  options: { readonly withoutChunk?: boolean } = {},
): Promise<PutAnswer> {
  const bytes = crypto.getRandomValues(new Uint8Array(40));
  const blob = chunkBlob(bytes, { chunkSizeBytes: PUT_CHUNK_BYTES });
  const chunk = blob.chunks[0]!;
  const manifest = {
    cid: blob.cid,
    size_bytes: blob.size_bytes,
    chunk_size_bytes: PUT_CHUNK_BYTES,
    chunks: [{ i: 0, cid: chunk.cid, size_bytes: chunk.size_bytes }],
  };
  const sent = signedCall(ctx, { capability: 'file.put', input: { manifest } }, { stream: true });
  sent.headers.set('Content-Type', contentType);
  const frames = [
    ...before,
    ...(options.withoutChunk === true
      ? []
      : [{ event: 'chunk', data: { i: 0, cid: chunk.cid, data_b64: base64Encode(bytes) } }]),
  ];
  const body = [
    `event: request\ndata: ${sent.body}\n\n`,
    ...frames.map((frame) => `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`),
  ].join('');
  const response = await ctx.fetch(ctx.url, { method: 'POST', headers: sent.headers, body });
  if (
    response.status !== 200 ||
    !isMediaType(response.headers.get('Content-Type'), EVENT_STREAM_CONTENT_TYPE) ||
    response.body === null
  ) {
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Reported as text.
    }
    return { kind: 'error', status: response.status, body: parsed };
  }
  const stream = new SseBody(response.body);
  const events: { event: string; data: unknown }[] = [];
  try {
    for (;;) {
      const item = await stream.nextEvent(ctx.patienceMs, `frame ${events.length} of a file.put`);
      if (item === undefined) break;
      events.push({ event: item.event, data: parseFrameData(item, events.length) });
      if (item.event === 'done' || item.event === 'error') break;
    }
  } finally {
    await stream.cancel();
  }
  return { kind: 'stream', frames: events };
}

/** A put that must end `ready {needed: [0]}`, `done {received: 1}`. */
function expectPutDone(answer: PutAnswer, what: string): void {
  if (answer.kind === 'error') fail(`${what} answered HTTP ${answer.status} ${clip(answer.body)}`);
  const events = answer.frames.map((frame) => frame.event);
  assertEqual(events, ['ready', 'done'], `${what}: the frames (${clip(answer.frames)})`);
  const [ready, done] = answer.frames;
  assertEqual((ready!.data as { needed?: unknown }).needed, [0], `${what}: needed of ready`);
  assertEqual((done!.data as { received?: unknown }).received, 1, `${what}: received of done`);
}

/** A put that must be refused `bad_request`: a §5.4 answer, or an `error` frame after `ready` (§5.5). */
function expectPutRefused(answer: PutAnswer, what: string): void {
  if (answer.kind === 'error') {
    const body = checkErrorBody(answer.body, ['bad_request'], what);
    assertEqual(answer.status, 400, `${what}: the HTTP status of ${String(body['error'])} (§5.5)`);
    return;
  }
  const last = answer.frames.at(-1);
  assertTrue(last?.event === 'error', `${what} was not refused: the frames ${clip(answer.frames)}`);
  checkErrorBody(last.data, ['bad_request'], `${what}: the error frame`);
}

/** Changes one character in the middle of a signature's base64url text. */
function flipCharacter(signature: string): string {
  const at = Math.floor(signature.length / 2);
  return `${signature.slice(0, at)}${signature[at] === 'A' ? 'B' : 'A'}${signature.slice(at + 1)}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
