// Acceptance (issue 10, blobs): two nodes over real loopback HTTP move a 5 MB blob with file.put and
// file.read; corrupted chunks are refused on both directions; an interrupted file.put resumes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_ADVERTISE, FILE_LIST, FILE_PUT, FILE_READ } from '../capabilities/catalogue/catalogue.js';
import {
  BadRequestError,
  CapabilityRegistry,
  NotFoundError,
  UnauthorizedError,
} from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { base64Encode } from '../encoding.js';
import { chunkBlob, contentId } from '../hashing.js';
import { type ServedBusHandler, serveBusHandler } from '../node-http.js';
import {
  type CapabilityHandler,
  createBusHandler,
  createHearthNetClient,
  type HearthNetClient,
  type SseFrame,
  staticTrust,
} from '../wire/index.js';
import { InMemoryBlobStore } from './backed-blob-store.js';
import type { BlobStore } from './blob-store.js';
import {
  fileCapabilityHandlers,
  InMemoryBlobDirectory,
  manifestToWire,
  putBlob,
  readBlob,
  registerFileCapabilities,
} from './index.js';

const nodeA = keyPairFromSeed(new Uint8Array(32).fill(31));
const nodeB = keyPairFromSeed(new Uint8Array(32).fill(32));
const member = keyPairFromSeed(new Uint8Array(32).fill(33));
const community = nodeA.nodeId;

/** Deterministic pseudo-random bytes (xorshift), so that chunks differ from each other. */
function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/** Byte equality without the matcher's per-element diffing (slow on megabytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** A store that counts the chunks it is given and can run a hook after each. */
function countingStore(store: BlobStore, afterPut: () => void): BlobStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'putChunk') {
        return async (cid: string, bytes: Uint8Array) => {
          await target.putChunk(cid, bytes);
          afterPut();
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

let storeB: InMemoryBlobStore;
let servedB: ServedBusHandler;
const directory = new InMemoryBlobDirectory();
let onPut: () => void = () => undefined;
let activePuts = 0;

beforeAll(async () => {
  storeB = new InMemoryBlobStore();
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  const handlers = fileCapabilityHandlers({
    store: countingStore(storeB, () => onPut()),
    directory,
    pinPuts: true,
  });
  registry.register(FILE_READ, handlers['file.read'], { maxConcurrent: 8 });
  registry.register(FILE_LIST, handlers['file.list'], { maxConcurrent: 8 });
  registry.register(FILE_ADVERTISE, handlers['file.advertise'], { maxConcurrent: 8 });
  // Counts the file.put streams still running, so a test can wait for an interrupted one to settle.
  registry.register(
    FILE_PUT,
    async (request, context) => {
      const frames = (await handlers['file.put'](request, context)) as AsyncIterable<SseFrame>;
      return (async function* () {
        activePuts += 1;
        try {
          yield* frames;
        } finally {
          activePuts -= 1;
        }
      })();
    },
    { maxConcurrent: 2 },
  );
  servedB = await serveBusHandler(
    createBusHandler({
      identity: nodeB,
      registry,
      community,
      trust: staticTrust({ [nodeA.nodeId]: 'trusted', [member.nodeId]: 'member' }),
    }),
  );
});

afterAll(async () => {
  await servedB.close();
});

const clientOf = (identity: typeof nodeA, fetchFunction?: typeof fetch): HearthNetClient =>
  createHearthNetClient({
    identity,
    community,
    node: servedB.url,
    peer: nodeB.nodeId,
    ...(fetchFunction === undefined ? {} : { fetch: fetchFunction }),
  });

describe('file.put then file.read between two nodes', () => {
  it('moves a 5 MB blob byte-identically, sending only what the node lacks', async () => {
    const blob = pseudoRandomBytes(5 * 1024 * 1024, 7);
    const put = await putBlob(clientOf(nodeA), blob);
    expect(put.needed).toEqual([...Array(20).keys()]);
    expect(put.received).toBe(20);
    expect(put.manifest.cid).toBe(chunkBlob(blob).cid);
    expect(await storeB.isPinned(put.manifest.cid)).toBe(true);

    const again = await putBlob(clientOf(nodeA), blob);
    expect(again.needed).toEqual([]);
    expect(again.received).toBe(0);

    const read = await readBlob(clientOf(member), put.manifest.cid);
    expect(sameBytes(read.bytes, blob)).toBe(true);
    expect(read.manifest?.cid).toBe(put.manifest.cid);

    const listed = await clientOf(member).call('file.list', { params: {}, input: {} });
    expect(listed.output.cids).toContain(put.manifest.cid);
  });

  it('reads a single chunk inline (non-stream) and streamed, and stores what it verified', async () => {
    const blob = pseudoRandomBytes(1000, 9);
    const manifest = await storeB.putBlob(blob);
    const chunkCid = manifest.chunks[0]!.cid;
    const inline = await clientOf(member).call('file.read', { params: {}, input: { cid: chunkCid } });
    expect(inline.output).toEqual({ cid: chunkCid, size_bytes: 1000, data_b64: base64Encode(blob) });

    const local = new InMemoryBlobStore();
    const streamed = await readBlob(clientOf(member), chunkCid, { store: local });
    expect(streamed.bytes).toEqual(blob);
    expect(streamed.manifest).toBeUndefined();
    expect(await local.hasChunk(chunkCid)).toBe(true);

    const whole = await readBlob(clientOf(member), manifest.cid, { store: local });
    expect(whole.bytes).toEqual(blob);
    expect(await local.readBlob(manifest.cid)).toEqual(blob);
  });

  it('answers not_found for a CID it does not hold, and bad_request for a blob read without a stream', async () => {
    const unknown = contentId(new TextEncoder().encode('nobody has this'));
    await expect(readBlob(clientOf(member), unknown)).rejects.toBeInstanceOf(NotFoundError);
    const manifest = await storeB.putBlob(pseudoRandomBytes(10, 3));
    await expect(
      clientOf(member).call('file.read', { params: {}, input: { cid: manifest.cid } }),
    ).rejects.toBeInstanceOf(BadRequestError);
  });

  it('refuses file.put from a caller who is only a member', async () => {
    await expect(putBlob(clientOf(member), pseudoRandomBytes(100, 4))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it('records file.advertise announcements in the directory', async () => {
    const cid = contentId(new TextEncoder().encode('held elsewhere'));
    const first = await clientOf(member).call('file.advertise', { params: {}, input: { cids: [cid] } });
    const second = await clientOf(member).call('file.advertise', { params: {}, input: { cids: [cid] } });
    expect(first.output.recorded).toBe(1);
    expect(second.output.recorded).toBe(0);
    expect(await directory.holdersOf(cid)).toEqual([member.nodeId]);
  });
});

describe('corruption on the wire', () => {
  it('file.read: a chunk whose bytes were changed in transit is refused with blob_transfer', async () => {
    const blob = pseudoRandomBytes(3 * 262144 + 17, 11);
    const manifest = await storeB.putBlob(blob);
    const local = new InMemoryBlobStore();
    // Change one base64 character inside the data of chunk 1 while it travels.
    const corrupting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      const frame = text.indexOf('event: chunk\ndata: {"i":1,');
      const data = text.indexOf('"data_b64":"', frame) + '"data_b64":"'.length;
      const swapped = text[data + 10] === 'A' ? 'B' : 'A';
      return new Response(text.slice(0, data + 10) + swapped + text.slice(data + 11), {
        status: response.status,
        headers: response.headers,
      });
    };
    const failure = await readBlob(clientOf(member, corrupting), manifest.cid, { store: local }).catch(
      (e) => e,
    );
    expect(failure).toMatchObject({ code: 'blob_transfer', details: { reason: 'chunk_mismatch', index: 1 } });
    expect(await local.hasChunk(manifest.chunks[1]!.cid)).toBe(false);
    expect(await local.getManifest(manifest.cid)).toBeUndefined();
  });

  it('file.read: a manifest for another blob is refused', async () => {
    const wanted = await storeB.putBlob(pseudoRandomBytes(500, 12));
    const other = await storeB.putBlob(pseudoRandomBytes(500, 13));
    // The manifest frame's CID is swapped in transit: its chunks are not the blob asked for.
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = (await response.text()).replaceAll(wanted.cid, other.cid);
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const failure = await readBlob(clientOf(member, lying), wanted.cid).catch((e) => e);
    expect(failure).toMatchObject({ code: 'blob_transfer', details: { reason: 'manifest_mismatch' } });
  });

  it('file.put: a chunk that does not match its CID ends the stream with bad_request and is not stored', async () => {
    const blob = pseudoRandomBytes(2 * 262144, 14);
    const chunked = chunkBlob(blob);
    const manifest = {
      cid: chunked.cid,
      size_bytes: blob.length,
      chunk_size_bytes: 262144,
      chunks: chunked.chunks.map((c) => ({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
    };
    const stream = await clientOf(nodeA).call(
      'file.put',
      { params: {}, input: { manifest: manifestToWire(manifest) } },
      { stream: true, duplex: true },
    );
    const tampered = blob.slice(0, 262144);
    tampered[5] = (tampered[5] ?? 0) ^ 1;
    const frames: string[] = [];
    const failure = await (async () => {
      for await (const frame of stream) {
        frames.push(frame.event);
        if (frame.event === 'ready') {
          await stream.send({
            event: 'chunk',
            data: { i: 0, cid: manifest.chunks[0]!.cid, data_b64: base64Encode(tampered) },
          });
        }
      }
    })().catch((e) => e);
    expect(frames).toEqual(['ready']);
    expect(failure).toBeInstanceOf(BadRequestError);
    expect(await storeB.hasChunk(manifest.chunks[0]!.cid)).toBe(false);
    expect(await storeB.getManifest(manifest.cid)).toBeUndefined();
  });
});

describe('resuming an interrupted file.put', () => {
  it('the second attempt sends only the chunks the node still lacks', async () => {
    const blob = pseudoRandomBytes(12 * 262144 + 5, 21);
    const total = chunkBlob(blob).chunks.length;
    const controller = new AbortController();
    let stored = 0;
    onPut = () => {
      stored += 1;
      if (stored === 4) controller.abort(new Error('connection lost'));
    };
    await expect(putBlob(clientOf(nodeA), blob, { signal: controller.signal })).rejects.toThrow();
    onPut = () => undefined;
    const manifest = chunkBlob(blob);
    const wire = {
      cid: manifest.cid,
      size_bytes: blob.length,
      chunk_size_bytes: 262144,
      chunks: manifest.chunks.map((c) => ({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
    };
    // Whatever the node verified before the break is kept; wait until its handler has settled.
    await expect.poll(() => activePuts).toBe(0);
    const missingBefore = await storeB.missingChunks(wire);
    expect(missingBefore.length).toBeGreaterThan(0);
    expect(missingBefore.length).toBeLessThanOrEqual(total - 4);

    const resumed = await putBlob(clientOf(nodeA), blob);
    expect(resumed.needed).toEqual(missingBefore);
    expect(resumed.received).toBe(missingBefore.length);
    const back = await readBlob(clientOf(member), manifest.cid);
    expect(sameBytes(back.bytes, blob)).toBe(true);
  });
});

describe('registerFileCapabilities', () => {
  it('registers the four file capabilities with their catalogue descriptors and limits', () => {
    const registry = new CapabilityRegistry<CapabilityHandler>({});
    registerFileCapabilities(registry, { store: new InMemoryBlobStore(), maxConcurrent: { put: 1 } });
    for (const name of ['file.read', 'file.list', 'file.advertise', 'file.put']) {
      expect(registry.resolve(`${name}@>=1.0`)?.descriptor.name).toBe(name);
    }
    expect(registry.resolve('file.put@>=1.0')?.maxConcurrent).toBe(1);
    expect(registry.resolve('file.read@>=1.0')?.maxConcurrent).toBe(8);
  });
});
