import { chunkBlob, HearthNetLocalError, keyPairFromSeed } from '@agentwire/hearthnet';
import {
  fileCapabilityHandlers,
  InMemoryBlobStore,
  manifestToWire,
  parseBlobManifest,
  readBlob,
} from '@agentwire/hearthnet/blobs';
import { asHearthNetError, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
import {
  type CallContext,
  createHearthNetClient,
  EVENT_STREAM_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  newRequestId,
  type SseFrame,
  verifyRequestEnvelope,
  WIRE_HEADERS,
} from '@agentwire/hearthnet/wire';
import type {
  BlobReadRefusal,
  BlobTransferFrame,
  BlobTransferImplementation,
  FilePutOutcome,
  FileReadAnswer,
  HeldChunk,
} from './blob-transfer.js';

/** The node whose recorded answers the client reads, and the caller (a trusted peer for `file.put`). */
const servingNode = keyPairFromSeed(new Uint8Array(32).fill(0x51));
const caller = keyPairFromSeed(new Uint8Array(32).fill(0x52));
const community = servingNode.nodeId;

/**
 * `blobTransferSuite`'s view of `@agentwire/hearthnet/blobs`: manifests from `chunkBlob`; `read`
 * through the real client (`readBlob` over `createHearthNetClient`, whose `fetch` answers a signed
 * `file.read` of the CID with the recorded SSE body); `putReady` and `put` through the real
 * `file.put` handler (`fileCapabilityHandlers`) over an `InMemoryBlobStore` seeded with the held
 * chunks, the client's frames arriving as `context.clientFrames`; `serve` through the real `file.read`
 * handler over a store holding the chunks and manifests.
 */
export const agentwireBlobs: BlobTransferImplementation = {
  manifest: (bytes, chunkSizeBytes) => {
    const blob = chunkBlob(bytes, { chunkSizeBytes });
    return manifestToWire(
      parseBlobManifest({
        cid: blob.cid,
        size_bytes: blob.size_bytes,
        chunk_size_bytes: chunkSizeBytes,
        chunks: blob.chunks.map((chunk) => ({
          i: chunk.index,
          cid: chunk.cid,
          size_bytes: chunk.size_bytes,
        })),
      }),
    );
  },
  read: async (cid, sseBody) => {
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: 'http://serving-node.invalid',
      peer: servingNode.nodeId,
      fetch: recordedFileRead(cid, sseBody),
    });
    return (await readBlob(client, cid)).bytes;
  },
  refusalOf,
  putReady: async (manifest, held) => {
    const frames = (await startPut(manifest, await storeHolding(held), []))[Symbol.asyncIterator]();
    try {
      const first = await frames.next();
      if (first.done === true || first.value.event !== 'ready') {
        throw new Error(
          `file.put answered ${first.done === true ? 'nothing' : first.value.event} before ready`,
        );
      }
      return (first.value.data as { needed: number[] }).needed;
    } finally {
      await frames.return?.();
    }
  },
  put: async (manifest, held, sent) => {
    const store = await storeHolding(held);
    let needed: number[] | undefined;
    let received: number | undefined;
    let ms: unknown;
    let error: string | undefined;
    try {
      for await (const frame of await startPut(manifest, store, sent)) {
        if (frame.event === 'ready') needed = (frame.data as { needed: number[] }).needed;
        if (frame.event === 'done') ({ received, ms } = frame.data as { received: number; ms: unknown });
      }
    } catch (caught) {
      error = asHearthNetError(caught).code;
    }
    const stored = await storedBlob(store, manifest);
    return { needed, received, error, stored, ...(ms === undefined ? {} : { ms }) } satisfies FilePutOutcome;
  },
  serve: async (cid, held, stream) => {
    const store = await storeHolding(held.chunks);
    for (const manifest of held.manifests) await store.putManifest(parseBlobManifest(manifest));
    let answer: unknown;
    try {
      const handler = fileCapabilityHandlers({ store })['file.read'];
      answer = await handler({ params: {}, input: { cid } }, callContext('file.read', stream));
    } catch (caught) {
      return { error: asHearthNetError(caught).code } satisfies FileReadAnswer;
    }
    if (!stream) {
      const { output, meta } = answer as { output?: unknown; meta?: { ms?: unknown } };
      return { output, ms: meta?.ms } satisfies FileReadAnswer;
    }
    const frames: BlobTransferFrame[] = [];
    try {
      for await (const frame of answer as AsyncIterable<SseFrame>)
        frames.push({ event: frame.event, data: frame.data });
    } catch (caught) {
      return { frames, error: asHearthNetError(caught).code } satisfies FileReadAnswer;
    }
    return { frames } satisfies FileReadAnswer;
  },
};

/** A `fetch` standing for a node that answers a signed `file.read` of `cid` with `sseBody`. */
function recordedFileRead(cid: string, sseBody: string): typeof fetch {
  return async (_url, init) => {
    const headers = new Headers(init?.headers);
    const body = JSON.parse(String(init?.body)) as { input?: { cid?: unknown } };
    const verdict = verifyRequestEnvelope(
      {
        capability: headers.get(WIRE_HEADERS.capability) ?? '',
        version: headers.get(WIRE_HEADERS.capabilityVersion) ?? '',
        requestId: headers.get(WIRE_HEADERS.requestId) ?? '',
        from: headers.get(WIRE_HEADERS.from) ?? '',
        community: headers.get(WIRE_HEADERS.community) ?? '',
        timestamp: headers.get(WIRE_HEADERS.timestamp) ?? '',
        body,
      },
      headers.get(WIRE_HEADERS.signature) ?? '',
    );
    const isTheRead = headers.get(WIRE_HEADERS.capability) === 'file.read' && body.input?.cid === cid;
    if (!verdict.valid || !isTheRead) {
      return new Response(
        JSON.stringify({ error: 'bad_request', message: 'not a signed file.read of the CID' }),
        {
          status: 400,
          headers: { 'Content-Type': JSON_CONTENT_TYPE },
        },
      );
    }
    return new Response(sseBody, {
      status: 200,
      headers: {
        'Content-Type': EVENT_STREAM_CONTENT_TYPE,
        [WIRE_HEADERS.from]: servingNode.nodeId,
        [WIRE_HEADERS.requestId]: headers.get(WIRE_HEADERS.requestId) ?? '',
      },
    });
  };
}

/**
 * The refusal behind an error of `readBlob`: the reason a `blob_transfer` error states, a missing
 * terminal frame, or a §9 code. A `blob_transfer` error that states no reason is no refusal.
 */
function refusalOf(error: unknown): BlobReadRefusal | undefined {
  if (error instanceof HearthNetLocalError && error.code === 'blob_transfer') {
    const reason = error.details?.reason;
    if (typeof reason !== 'string') return undefined;
    const index = error.details?.index;
    return index === undefined ? { reason } : { reason, chunkIndex: index };
  }
  if (
    error instanceof HearthNetLocalError &&
    error.code === 'sse_protocol' &&
    error.details?.reason === 'missing_terminal'
  )
    return { reason: 'incomplete' };
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { reason: code } : undefined;
}

async function storeHolding(held: readonly HeldChunk[]): Promise<InMemoryBlobStore> {
  const store = new InMemoryBlobStore();
  for (const chunk of held) await store.putChunk(chunk.cid, chunk.bytes);
  return store;
}

/** The context the bus handler gives a trusted caller's call of `capability`. */
function callContext(capability: 'file.put' | 'file.read', stream: boolean): CallContext {
  return {
    caller: caller.nodeId,
    callerVerified: true,
    trust: 'trusted',
    requestId: newRequestId(),
    descriptor: catalogueDescriptor(capability),
    requestedVersion: catalogueDescriptor(capability).version,
    stream,
    signal: new AbortController().signal,
    clientFrames: undefined,
  };
}

/** Calls the `file.put` handler as the bus handler would for a trusted caller's client stream. */
async function startPut(
  manifest: unknown,
  store: InMemoryBlobStore,
  sent: readonly BlobTransferFrame[],
): Promise<AsyncIterable<SseFrame>> {
  const context: CallContext = {
    ...callContext('file.put', true),
    clientFrames: (async function* () {
      yield* sent;
    })(),
  };
  const handler = fileCapabilityHandlers({ store })['file.put'];
  return (await handler({ params: {}, input: { manifest } }, context)) as AsyncIterable<SseFrame>;
}

/** The blob the store holds under the manifest's cid, if any. */
async function storedBlob(store: InMemoryBlobStore, manifest: unknown): Promise<Uint8Array | undefined> {
  const cid = (manifest as { cid?: unknown } | null)?.cid;
  if (typeof cid !== 'string') return undefined;
  return store.readBlob(cid).catch(() => undefined);
}
