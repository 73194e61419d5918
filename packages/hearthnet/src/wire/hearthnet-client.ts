import { messageWithCause } from '@agentwire/internal';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { parseStrictJson } from '../canonical-json/strict-json.js';
import {
  type CapabilityRequest,
  type CapabilityResponse,
  type CapabilityStreamFrame,
  type CatalogueCapabilityName,
  FILE_READ,
} from '../capabilities/catalogue/catalogue.js';
import { errorFromBody } from '../capabilities/error-body.js';
import {
  asHearthNetError,
  type CapabilityDescriptor,
  catalogueDescriptor,
  InternalError,
  InvalidSignatureError,
  PartitionError,
  validatorsFor,
} from '../capabilities/index.js';
import { type KeyPair, parseNodeId } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { ChunkFrame, fileReadChunkFromBytes, frameBytes } from './chunk-frame.js';
import {
  type CapabilityCallBody,
  type ResponseVerification,
  type WireDialect,
  wireDialectOf,
} from './dialect.js';
import {
  ACK_WINDOW_HEADER,
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  formatWireTimestamp,
  isMediaType,
  isResponseSignatureMandatory,
  JSON_CONTENT_TYPE,
  newRequestId,
  verifyResponseEnvelope,
  WIRE_HEADERS,
} from './envelope.js';
import {
  ACK_EVENT,
  ackDue,
  encodeSseEvent,
  REQUEST_EVENT,
  readBodyFrames,
  type SseFrame,
  type StreamFrameValidator,
  streamFrameValidator,
} from './sse.js';

/** Options of {@link createHearthNetClient}; calls go to `/bus/v1/call` on `node`. */
export interface HearthNetClientOptions extends PeerClientOptions {
  /**
   * The wire dialect spoken. Default `contractWire` (contract §5); `referenceWire` from
   * `@agentwire/hearthnet/compat` is the Python reference nodes' dialect (docs/hearthnet.md,
   * "Reference-compat mode").
   */
  readonly wire?: WireDialect;
  /** Which response signatures to check. Default: the dialect's (`mutating` on `contractWire`, `none` on `referenceWire`). */
  readonly verifyResponses?: ResponseVerification;
  /**
   * The descriptor of a capability, for validation and types beyond the catalogue (`experimental.*`).
   * Default: the contract catalogue, when its version has the requested major.
   */
  readonly descriptorOf?: (capability: string, version: string) => CapabilityDescriptor | undefined;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** Options of one call. */
export interface CallOptions {
  /** The version asked for (`X.Y`, contract §2.1). Default: the descriptor's, else `1.0`. */
  readonly version?: string;
  /** Aborts the call; for a stream, closes the connection, which cancels the work on the server. */
  readonly signal?: AbortSignal;
  /** Ask for an event stream (contract §5.3) and get an async iterator of frames. */
  readonly stream?: boolean;
  /**
   * Open a client stream as well (needs `stream: true`, contract wire only): the request body stays
   * open and the returned stream can `send` frames to the server while its frames are read —
   * `file.put` sends its `chunk` frames this way. On the wire: `Content-Type: text/event-stream`, a
   * first `request` frame holding the signed call body, then the frames sent.
   */
  readonly duplex?: boolean;
  /**
   * Back-pressure by acknowledgement (contract §5.3 `ack`), for a duplex stream: the server keeps at
   * most this many frames unacknowledged, and the client acknowledges `{"upto": N}` every half
   * window as it reads. Sent as `X-HearthNet-Ack-Window`. Default: none (TCP back-pressure only).
   */
  readonly ackWindow?: number;
}

/** The frames a streamed catalogue call yields. */
export type StreamFrameOf<N extends CatalogueCapabilityName> = CapabilityStreamFrame<N> | ProgressFrame;

/** A capability name that is not in the catalogue (catalogue names take the typed overloads). */
export type OutsideCatalogue<S extends string> = S extends CatalogueCapabilityName ? never : S;

/** A client of one node's bus. */
export interface HearthNetClient {
  /** Calls a catalogue capability; resolves with the validated `{output, meta}` body. */
  call<N extends CatalogueCapabilityName>(
    capability: N,
    request: NoInfer<CapabilityRequest<N>>,
    options?: CallOptions & { readonly stream?: false },
  ): Promise<CapabilityResponse<N>>;
  /** Calls a streaming catalogue capability with a client stream (`file.put`): frames both ways. */
  call<N extends CatalogueCapabilityName>(
    capability: N,
    request: NoInfer<CapabilityRequest<N>>,
    options: CallOptions & { readonly stream: true; readonly duplex: true },
  ): Promise<HearthNetDuplexStream<StreamFrameOf<N>>>;
  /** Calls a streaming catalogue capability; resolves, once the stream is accepted, with its frames. */
  call<N extends CatalogueCapabilityName>(
    capability: N,
    request: NoInfer<CapabilityRequest<N>>,
    options: CallOptions & { readonly stream: true },
  ): Promise<HearthNetStream<StreamFrameOf<N>>>;
  /** Calls a capability outside the catalogue (`experimental.*`, reference extras); the output is untyped. */
  call<S extends string>(
    capability: OutsideCatalogue<S>,
    request: CapabilityCallBody,
    options?: CallOptions & { readonly stream?: false },
  ): Promise<unknown>;
  call<S extends string>(
    capability: OutsideCatalogue<S>,
    request: CapabilityCallBody,
    options: CallOptions & { readonly stream: true; readonly duplex: true },
  ): Promise<HearthNetDuplexStream<SseFrame>>;
  call<S extends string>(
    capability: OutsideCatalogue<S>,
    request: CapabilityCallBody,
    options: CallOptions & { readonly stream: true },
  ): Promise<HearthNetStream<SseFrame>>;
}

/**
 * A client that calls capabilities on one node over the signed wire (contract §5).
 *
 * Each call validates the request against the capability schema (`bad_request` locally), signs it (§5.1),
 * POSTs it, and then: verifies the response signature (§5.2, see `verifyResponses` in
 * {@link HearthNetClientOptions}), validates the body against the response schema (an `InternalError` when the node answers
 * off-schema, the local check as `cause`), or turns an error response into its `HearthNetError` class (`errorFromBody`, §5.4, §5.5). A
 * network failure is a `PartitionError`; an abort rejects with the signal's reason.
 *
 * @example
 * const client = createHearthNetClient({ identity, community, node: 'http://127.0.0.1:7080' });
 * const { output } = await client.call('market.post', { params: {}, input: { client_id, category: 'offer', title: 'Wasser' } });
 *
 * const stream = await client.call('llm.chat', { params: { model: 'qwen2.5-7b-instruct' }, input: { messages } }, { stream: true, signal });
 * for await (const frame of stream) if (frame.event === 'token') process.stdout.write(frame.data.text);
 */
export function createHearthNetClient(options: HearthNetClientOptions): HearthNetClient {
  const settings = readOptions(options);
  return {
    call: ((capability: string, request: CapabilityCallBody, callOptions: CallOptions = {}) =>
      call(settings, capability, request, callOptions)) as HearthNetClient['call'],
  };
}

interface Settings {
  readonly identity: KeyPair;
  readonly community: string;
  readonly url: URL;
  readonly peer: string | undefined;
  readonly fetch: typeof fetch;
  readonly wire: WireDialect;
  readonly verification: ResponseVerification;
  readonly descriptorOf: (capability: string, version: string) => CapabilityDescriptor | undefined;
  /** `descriptorOf` is the dialect's own (its peers' schemas), not the catalogue's or the caller's. */
  readonly dialectSchemas: boolean;
  readonly now: () => number;
}

function readOptions(options: HearthNetClientOptions): Settings {
  const peer = readPeerClientOptions(
    options,
    (message, cause) =>
      new HearthNetLocalError('invalid_wire_options', message, cause === undefined ? undefined : { cause }),
  );
  const wire = wireDialectOf(options.wire);
  const verification = options.verifyResponses ?? wire.responseVerification;
  if (!['mutating', 'all', 'none'].includes(verification)) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      `verifyResponses must be 'mutating', 'all' or 'none'`,
    );
  }
  return {
    identity: peer.identity,
    community: peer.community,
    url: new URL(BUS_CALL_PATH, peer.node),
    peer: peer.peer,
    fetch: peer.fetch,
    wire,
    verification,
    descriptorOf: options.descriptorOf ?? wire.descriptorOf ?? catalogueDescriptorOf,
    dialectSchemas: options.descriptorOf === undefined && wire.descriptorOf !== undefined,
    now: options.now ?? Date.now,
  };
}

function catalogueDescriptorOf(capability: string, version: string): CapabilityDescriptor | undefined {
  const descriptor = catalogueDescriptor(capability);
  return descriptor !== undefined && descriptor.version.split('.')[0] === version.split('.')[0]
    ? descriptor
    : undefined;
}

interface Prepared {
  readonly requestId: string;
  readonly version: string;
  readonly descriptor: CapabilityDescriptor | undefined;
  readonly init: RequestInit;
  /** Ends the request (and a stream's connection) from our side: `HearthNetStream.close()`. */
  readonly local: AbortController;
  /** The request body of a client stream. */
  readonly writer: ClientFrameWriter | undefined;
  /** The `ack` window asked for, for a client stream. */
  readonly ackWindow: number | undefined;
}

async function call(
  settings: Settings,
  capability: string,
  request: CapabilityCallBody,
  options: CallOptions,
): Promise<unknown> {
  const prepared = prepare(settings, capability, request, options);
  let response: Response;
  try {
    response = await settings.fetch(settings.url, prepared.init);
  } catch (error) {
    prepared.writer?.abort(error);
    if (options.signal?.aborted === true) throw options.signal.reason;
    throw new PartitionError(`could not reach ${settings.url.origin}: ${messageWithCause(error)}`, {
      cause: error,
    });
  }
  const contentType = response.headers.get('Content-Type');
  if (isMediaType(contentType, EVENT_STREAM_CONTENT_TYPE) && response.ok) {
    if (options.stream !== true) {
      await response.body?.cancel();
      throw new HearthNetLocalError(
        'unexpected_response',
        `${capability} answered with a stream to a non-stream call`,
        { details: { status: response.status } },
      );
    }
    return openStream(settings, capability, prepared, response);
  }
  const { body, untrustworthy } = await readJson(response, capability).finally(() =>
    // Only after the response is read: failing the request body earlier would cut the response too.
    prepared.writer?.abort(
      new HearthNetLocalError('unexpected_response', `${capability} answered without a stream`, {
        details: { status: response.status },
      }),
    ),
  );
  const refusal = settings.wire.readError(response.status, body);
  checkResponseSignature(
    settings,
    capability,
    prepared,
    response,
    { body, untrustworthy },
    refusal === undefined,
  );
  if (refusal !== undefined) throw refusal;
  if (options.stream === true) {
    const text = settings.wire.streamOfAnswer?.(body);
    if (text !== undefined) {
      const headers = new Headers(response.headers);
      headers.set('Content-Type', EVENT_STREAM_CONTENT_TYPE);
      return openStream(settings, capability, prepared, new Response(text, { headers }));
    }
    throw new HearthNetLocalError(
      'unexpected_response',
      `${capability} answered with JSON to a stream call`,
      { details: { status: response.status } },
    );
  }
  const validator = prepared.descriptor === undefined ? null : validatorOf(prepared.descriptor, 'response');
  if (validator === null) return settings.wire.readAnswer(capability, body);
  // The dialect's own schemas describe what its peers send, so they check the answer as it came; any
  // other schema (the catalogue's, the caller's `descriptorOf`) checks it as the dialect reads it.
  return settings.dialectSchemas
    ? settings.wire.readAnswer(capability, checkedAnswer(validator, body))
    : checkedAnswer(validator, settings.wire.readAnswer(capability, body));
}

function prepare(
  settings: Settings,
  capability: string,
  request: CapabilityCallBody,
  options: CallOptions,
): Prepared {
  const requested = options.version ?? settings.descriptorOf(capability, '1.0')?.version ?? '1.0';
  const descriptor = settings.descriptorOf(capability, requested);
  if (descriptor !== undefined) {
    try {
      validatorOf(descriptor, 'request')?.(request);
    } catch (error) {
      throw asHearthNetError(error);
    }
  }
  const clientStream = options.duplex === true || options.ackWindow !== undefined;
  if (clientStream) checkClientStreamOptions(settings, options);
  const requestId = newRequestId(settings.now());
  const timestamp = formatWireTimestamp(settings.now());
  const headers = new Headers({
    'Content-Type': JSON_CONTENT_TYPE,
    Accept:
      options.stream === true ? `${EVENT_STREAM_CONTENT_TYPE}, ${JSON_CONTENT_TYPE}` : JSON_CONTENT_TYPE,
    [WIRE_HEADERS.requestId]: requestId,
    [WIRE_HEADERS.from]: settings.identity.nodeId,
    [WIRE_HEADERS.community]: settings.community,
    [WIRE_HEADERS.timestamp]: timestamp,
  });
  const body = settings.wire.writeCall(
    {
      capability,
      version: requested,
      requestId,
      timestamp,
      community: settings.community,
      identity: settings.identity,
      request,
      stream: options.stream === true,
    },
    headers,
  );
  const local = new AbortController();
  const signal =
    options.signal === undefined ? local.signal : AbortSignal.any([options.signal, local.signal]);
  if (!clientStream) {
    return {
      requestId,
      version: requested,
      descriptor,
      local,
      writer: undefined,
      ackWindow: undefined,
      init: { method: 'POST', headers, body: canonicalJsonString(body), signal },
    };
  }
  headers.set('Content-Type', EVENT_STREAM_CONTENT_TYPE);
  if (options.ackWindow !== undefined) headers.set(ACK_WINDOW_HEADER, String(options.ackWindow));
  const writer = new ClientFrameWriter();
  void writer.writeRequest(canonicalJsonString(body)).catch(() => undefined);
  signal.addEventListener('abort', () => writer.abort(signal.reason), { once: true });
  return {
    requestId,
    version: requested,
    descriptor,
    local,
    writer,
    ackWindow: options.ackWindow,
    // `duplex: 'half'` is what fetch requires for a stream body; the response is read while the body
    // is still being written (undici does so over HTTP/1.1).
    init: { method: 'POST', headers, body: writer.body, signal, duplex: 'half' } as RequestInit,
  };
}

function checkClientStreamOptions(settings: Settings, options: CallOptions): void {
  if (!settings.wire.clientStreams) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      'client streams (duplex, ackWindow) exist on the contract wire only',
    );
  }
  if (options.stream !== true) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      'a client stream (duplex, ackWindow) needs stream: true',
    );
  }
  const window = options.ackWindow;
  if (window !== undefined && (!Number.isSafeInteger(window) || window < 1 || window > 1024)) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      `ackWindow must be an integer from 1 to 1024, got ${String(window)}`,
    );
  }
}

/**
 * The answer as its schema reads it; an answer its schema refuses is an `InternalError`: the node broke
 * the schema of its own capability (a server-side fault, contract §9; the local check stays as `cause`).
 */
function checkedAnswer(validator: (value: unknown) => unknown, body: unknown): unknown {
  try {
    return validator(body);
  } catch (error) {
    if (!(error instanceof HearthNetLocalError) || error.code !== 'schema_validation') throw error;
    throw new InternalError(`the node answered off-schema: ${error.message}`, { cause: error });
  }
}

function validatorOf(
  descriptor: CapabilityDescriptor,
  part: 'request' | 'response',
): ((value: unknown) => unknown) | null {
  const validator = validatorsFor(descriptor)[part];
  return validator === null ? null : (value) => validator.parse(value);
}

/**
 * A JSON answer, and why its signature could not be trusted to cover what its bytes say, if so: bytes
 * that are not UTF-8 (decoded with U+FFFD in their place), a repeated key or a number `JSON.parse`
 * cannot read as written. A signature is checked against the parsed value, so any of these would verify
 * while another reader of the same bytes sees another answer.
 */
interface JsonAnswer {
  readonly body: unknown;
  readonly untrustworthy: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

async function readJson(response: Response, capability: string): Promise<JsonAnswer> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  let text: string;
  let untrustworthy: string | undefined;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = lenientUtf8.decode(bytes);
    untrustworthy = 'is not UTF-8';
  }
  if (text === '') return { body: {}, untrustworthy: undefined };
  const read = parseStrictJson(text);
  if (read.ok) return { body: read.value, untrustworthy };
  if (read.problem !== 'syntax') return { body: read.value, untrustworthy: `holds a ${read.message}` };
  if (!response.ok) return { body: {}, untrustworthy: undefined };
  throw new HearthNetLocalError(
    'unexpected_response',
    `${capability} answered with a body that is not JSON`,
    { cause: read.cause, details: { status: response.status } },
  );
}

function checkResponseSignature(
  settings: Settings,
  capability: string,
  prepared: Prepared,
  response: Response,
  { body, untrustworthy }: JsonAnswer,
  success: boolean,
): void {
  if (settings.verification === 'none') return;
  const signature = response.headers.get(WIRE_HEADERS.signature);
  const required = success && (settings.verification === 'all' || isResponseSignatureMandatory(capability));
  if (signature === null) {
    if (required) throw new InvalidSignatureError(`the ${capability} response is not signed (contract §5.2)`);
    return;
  }
  if (untrustworthy !== undefined) {
    throw new InvalidSignatureError(`the signed ${capability} response body ${untrustworthy}`);
  }
  const from = response.headers.get(WIRE_HEADERS.from) ?? '';
  if (settings.peer !== undefined && from !== settings.peer) {
    throw new InvalidSignatureError(`the response comes from ${from}, not from ${settings.peer}`);
  }
  const verdict = verifyResponseEnvelope(
    {
      capability,
      version: prepared.version,
      requestId: prepared.requestId,
      from,
      timestamp: response.headers.get(WIRE_HEADERS.timestamp) ?? '',
      status: response.status,
      body,
    },
    signature,
  );
  if (!verdict.valid) {
    throw new InvalidSignatureError(`the ${capability} response signature is invalid (${verdict.reason})`);
  }
}

function openStream(
  settings: Settings,
  capability: string,
  prepared: Prepared,
  response: Response,
): HearthNetStream<SseFrame> | HearthNetDuplexStream<SseFrame> {
  const body = response.body;
  const { writer, ackWindow } = prepared;
  if (body === null) {
    writer?.abort(
      new HearthNetLocalError('unexpected_response', `${capability} answered with an empty stream`, {
        details: { status: response.status },
      }),
    );
    throw new HearthNetLocalError('unexpected_response', `${capability} answered with an empty stream`, {
      details: { status: response.status },
    });
  }
  const from = response.headers.get(WIRE_HEADERS.from) ?? undefined;
  if (settings.peer !== undefined && from !== settings.peer) {
    void body.cancel();
    prepared.local.abort();
    throw new InvalidSignatureError(`the stream comes from ${String(from)}, not from ${settings.peer}`);
  }
  const validate: StreamFrameValidator | undefined =
    settings.wire.typedStreamFrames && prepared.descriptor !== undefined
      ? streamFrameValidator(prepared.descriptor)
      : undefined;
  const readerOptions = validate === undefined ? {} : { validate };
  // The chunks of the catalogue's `file.read` are read straight from their bytes (ChunkFrame), the rest
  // as JSON: what ChunkFrame.decode takes is what that schema allows. (A fetch body's chunks stay as read.)
  const frames = readBodyFrames(
    body,
    readerOptions,
    prepared.descriptor === FILE_READ ? fileReadChunkFromBytes : undefined,
  );
  let closed = false;
  let received = 0;
  let acknowledged = 0;
  async function* iterate(): AsyncGenerator<SseFrame, void, undefined> {
    try {
      for await (const frame of frames) {
        if (frame.event === 'error') throw errorFromBody(frame.data);
        received += 1;
        if (writer !== undefined && ackWindow !== undefined && ackDue(received, acknowledged, ackWindow)) {
          acknowledged = received;
          void writer.write({ event: ACK_EVENT, data: { upto: received } }).catch(() => undefined);
        }
        yield frame;
      }
    } catch (error) {
      // close() aborted the connection under a pending read: the stream just ends.
      if (!closed) throw error;
    } finally {
      writer?.end();
    }
  }
  const iterator = iterate();
  const stream: HearthNetStream<SseFrame> = {
    requestId: prepared.requestId,
    from,
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed = true;
      // Aborting first ends a read that waits on a silent stream (keepalives carry no frame).
      prepared.local.abort();
      await iterator.return();
      await frames.return().catch(() => undefined);
      if (!body.locked) await body.cancel().catch(() => undefined);
    },
  };
  if (writer === undefined) return stream;
  const check = validate ?? ((frame: SseFrame) => frame);
  return {
    ...stream,
    send: async (frame) => writer.write(frame instanceof ChunkFrame ? frame : check(frame)),
    end: () => writer.end(),
  };
}

/** `progress` frame data (contract §5.3). */
export interface ProgressFrameData {
  readonly current: number;
  readonly total?: number;
  readonly stage?: string;
}

/** A `progress` frame; any stream may carry them. */
export type ProgressFrame = SseFrame<'progress', ProgressFrameData>;

/**
 * The frames of a streamed call, as an async iterator: the capability's frames (and `progress`) up to and
 * including `done`. An `error` frame is thrown as its `HearthNetError`; a broken stream as
 * `HearthNetLocalError` `sse_protocol`. Leaving the loop early, {@link close}, or the call's `AbortSignal`
 * closes the connection, which cancels the work on the server (contract §4.1).
 */
export interface HearthNetStream<Frame> extends AsyncIterable<Frame> {
  /** `X-HearthNet-Request-Id` of the call. */
  readonly requestId: string;
  /** `X-HearthNet-From` of the response: the serving node. */
  readonly from: string | undefined;
  /** Stops reading and closes the connection. */
  close(): Promise<void>;
}

/**
 * The frames of a call that also streams frames to the server (`CallOptions.duplex`, e.g. `file.put`
 * chunks): read the server's frames as with {@link HearthNetStream}, and {@link send} frames while
 * doing so; {@link end} says no more frames will come. Closing the stream ends both directions.
 */
export interface HearthNetDuplexStream<Frame> extends HearthNetStream<Frame> {
  /**
   * Sends one frame, checked against the capability's stream schema first. Resolves when it is
   * queued (the queue is kept under 1 MiB, so a fast sender is paced by the connection).
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`invalid_frame`) when the frame does not match the schema.
   * @throws {HearthNetLocalError} `invalid_wire_options` after {@link end}.
   */
  send(frame: SseFrame): Promise<void>;
  /** Ends the frames sent to the server; the server's frames keep coming until its `done`. */
  end(): void;
}

/** What every client of one node is told: who calls, in which community, which node, as whom it must answer. */
export interface PeerClientOptions {
  /** This node's key pair: it signs every request. */
  readonly identity: KeyPair;
  /** The full community id sent as `X-HearthNet-Community`. */
  readonly community: string;
  /** The base URL of the node called, e.g. `http://192.168.1.20:7080`. */
  readonly node: string | URL;
  /** The node id the node must answer as (`X-HearthNet-From`). Default: any node id whose signature verifies. */
  readonly peer?: string;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
}

/** {@link PeerClientOptions} checked. */
export interface PeerClientSettings {
  readonly identity: KeyPair;
  readonly community: string;
  /** The node's base URL. */
  readonly node: URL;
  readonly peer: string | undefined;
  readonly fetch: typeof fetch;
}

/**
 * Checks the options every client of a node shares (the bus client, the pub-sub clients), throwing the
 * client's own options error through `fail`.
 */
export function readPeerClientOptions(
  options: Partial<PeerClientOptions> | null | undefined,
  fail: (message: string, cause?: unknown) => Error,
): PeerClientSettings {
  if (options === null || typeof options !== 'object') throw fail('options are required');
  const { identity, community } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw fail('identity must be a KeyPair');
  }
  if (typeof community !== 'string' || community === '') throw fail('community must be a full community id');
  let node: URL;
  try {
    node = new URL(options.node as string | URL);
  } catch (error) {
    throw fail(`node must be a base URL, got ${String(options.node)}`, error);
  }
  if (options.peer !== undefined) {
    try {
      parseNodeId(options.peer);
    } catch (error) {
      throw fail('peer must be a full node id', error);
    }
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') throw fail('no fetch available: pass options.fetch');
  return { identity, community, node, peer: options.peer, fetch: fetchFunction };
}

const utf8Encoder = new TextEncoder();

/** How many bytes of frames may wait in the request body before `write` waits for the network. */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * The request body of a client stream: SSE frames written one by one while the response is read.
 * `write` resolves once the frame is queued and the queue is below 1 MiB, so a fast sender is paced
 * by the connection; `end` closes the body (the server then sees the end of the client's frames).
 */
export class ClientFrameWriter {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #room: (() => void) | undefined;
  #state: 'open' | 'ended' | 'failed' = 'open';
  #failure: unknown;

  constructor() {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => {
          this.#wake();
        },
        cancel: (reason) => {
          this.#fail(reason ?? new DOMException('the request body was cancelled', 'AbortError'));
        },
      },
      { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  /**
   * Queues one frame.
   *
   * @throws {HearthNetLocalError} `invalid_wire_options` after `end()`.
   * @throws the reason the body failed (the connection closed or the call was aborted).
   */
  write(frame: SseFrame): Promise<void> {
    return this.#write(frameBytes(frame));
  }

  /** Queues the first frame, `request`, with the call body exactly as signed (canonical JSON text). */
  writeRequest(bodyJson: string): Promise<void> {
    return this.#write(utf8Encoder.encode(encodeSseEvent({ event: REQUEST_EVENT, data: bodyJson })));
  }

  async #write(bytes: Uint8Array): Promise<void> {
    if (this.#state === 'failed') throw this.#failure;
    if (this.#state === 'ended')
      throw new HearthNetLocalError('invalid_wire_options', 'the client stream has ended: no more frames');
    this.#controller.enqueue(bytes);
    while (this.#state === 'open' && (this.#controller.desiredSize ?? 0) <= 0) {
      await new Promise<void>((resolve) => {
        this.#room = resolve;
      });
    }
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    if (this.#state === 'failed') throw this.#failure;
  }

  /** Ends the body; later `end` calls do nothing. */
  end(): void {
    if (this.#state !== 'open') return;
    this.#state = 'ended';
    this.#controller.close();
    this.#wake();
  }

  /** Fails the body (and every waiting `write`) with `reason`. */
  abort(reason: unknown): void {
    if (this.#state === 'open') this.#controller.error(reason);
    this.#fail(reason);
  }

  #fail(reason: unknown): void {
    if (this.#state === 'failed') return;
    this.#state = 'failed';
    this.#failure = reason;
    this.#wake();
  }

  #wake(): void {
    const room = this.#room;
    this.#room = undefined;
    room?.();
  }
}
