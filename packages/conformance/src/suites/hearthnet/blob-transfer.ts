import { encodeHex } from '@agentwire/internal';
import blobTransferFixture from '../../../fixtures/hearthnet/blob-transfer.json' with { type: 'json' };
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBoolean,
  readBytes,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readPositiveInteger,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_BLOB_TRANSFER_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** A blob manifest as it travels in `file.read` and `file.put` (contract §4.7, §4.10). */
export interface WireBlobManifest {
  readonly cid: string;
  readonly size_bytes: number;
  readonly chunk_size_bytes: number;
  readonly chunks: readonly { readonly i: number; readonly cid: string; readonly size_bytes: number }[];
}

/** A chunk the serving node holds before a `file.put`. */
export interface HeldChunk {
  readonly cid: string;
  readonly bytes: Uint8Array;
}

/** A frame the client sends on a `file.put` stream, parsed: `{event: 'chunk', data: {i, cid, data_b64}}`. */
export interface BlobTransferFrame {
  readonly event: string;
  readonly data: unknown;
}

/** Why a client refused a `file.read` stream. */
export interface BlobReadRefusal {
  /** `chunk_mismatch`, `manifest_mismatch`, `incomplete`, or the §9 code of the node's error frame. */
  readonly reason: string;
  /** For `chunk_mismatch`: the index of the chunk refused. */
  readonly chunkIndex?: number;
}

/** What a node did with a `file.put`. */
export interface FilePutOutcome {
  /** `needed` of its `ready` frame; `undefined` when it refused before `ready`. */
  readonly needed: readonly number[] | undefined;
  /** `received` of its `done` frame; `undefined` when it refused. */
  readonly received: number | undefined;
  /** The §9 code it refused with; `undefined` when it answered `done`. */
  readonly error: string | undefined;
  /** The blob it holds under the manifest's cid afterwards; `undefined` when it holds none. */
  readonly stored: Uint8Array | undefined;
  /** `ms` of its `done` frame, the elapsed milliseconds; checked when given. */
  readonly ms?: unknown;
}

/** What a node holds before a `file.read`: chunks, and the manifests of blobs whose chunks are all among them. */
export interface HeldBlobs {
  readonly manifests: readonly WireBlobManifest[];
  readonly chunks: readonly HeldChunk[];
}

/** What a node answered a `file.read` with. */
export interface FileReadAnswer {
  /** The `output` of an answer without a stream. */
  readonly output?: unknown;
  /** The `meta.ms` of an answer without a stream. */
  readonly ms?: unknown;
  /** The frames of a streamed answer, in order, up to its end or its error frame. */
  readonly frames?: readonly BlobTransferFrame[];
  /** The §9 code the node refused with (before or during the stream); `undefined` when it did not. */
  readonly error?: string | undefined;
}

/**
 * The blob transfer under test: a manifest builder, and optionally a verifying `file.read` client
 * (capability `read`), the `file.put` server side (capability `put`) and the `file.read` server side
 * (capability `serve`).
 */
export interface BlobTransferImplementation {
  /** The wire manifest of `bytes` cut into chunks of `chunkSizeBytes`. */
  manifest(bytes: Uint8Array, chunkSizeBytes: number): WireBlobManifest | Promise<WireBlobManifest>;
  /**
   * Reads blob (or chunk) `cid` with a streamed `file.read` from a node that answers with `sseBody`,
   * the whole response body; resolves with the bytes the client accepts. Capability `read`.
   */
  read?(cid: string, sseBody: string): Promise<Uint8Array>;
  /** Why `read` rejected; `undefined` when the error is not a refusal of the stream. Capability `read`. */
  refusalOf?(error: unknown): BlobReadRefusal | undefined;
  /** The `needed` list of the `ready` frame a node holding `held` answers `file.put {manifest}` with. Capability `put`. */
  putReady?(manifest: unknown, held: readonly HeldChunk[]): Promise<readonly number[]>;
  /** Plays a whole `file.put` against a node holding `held`: the client sends `frames`, then ends. Capability `put`. */
  put?(
    manifest: unknown,
    held: readonly HeldChunk[],
    frames: readonly BlobTransferFrame[],
  ): Promise<FilePutOutcome>;
  /**
   * What a node holding `held` answers `file.read {cid}` with, asked with a stream when `stream` is true
   * (frames, an `error` frame's code as `error`), without one otherwise (`output` and `meta.ms`, or the
   * error's code). Capability `serve`.
   */
  serve?(cid: string, held: HeldBlobs, stream: boolean): Promise<FileReadAnswer>;
}

const FIXTURE_NAME = 'hearthnet/blob-transfer.json';
const fixture = readFixtureFile(blobTransferFixture, FIXTURE_NAME);

/** The members of a BlobTransferImplementation that provide each capability. */
const BLOB_TRANSFER_MEMBERS = {
  read: ['read', 'refusalOf'],
  put: ['putReady', 'put'],
  serve: ['serve'],
} as const satisfies CapabilityMembers<BlobTransferImplementation>;

/**
 * Blob manifests, verified `file.read` streams (valid, reordered, corrupted, cut short, with malformed
 * manifests), `file.put` exchanges and a node's `file.read` answers from
 * `fixtures/hearthnet/blob-transfer.json`.
 *
 * @example
 * ```ts
 * import { agentwireBlobs } from './agentwire-blobs.js';
 * const report = await runSuite(blobTransferSuite(agentwireBlobs));
 * ```
 */
export function blobTransferSuite(
  implementation: BlobTransferImplementation,
): ConformanceSuite<BlobTransferImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, BLOB_TRANSFER_MEMBERS));
  return {
    name: 'hearthnet.blob-transfer',
    version: HEARTHNET_BLOB_TRANSFER_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.map(caseFor),
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(BLOB_TRANSFER_MEMBERS, 'BlobTransferImplementation'),
  };
}

type BlobCase = ConformanceCase<BlobTransferImplementation>;

function caseFor(entry: FixtureCase, index: number): BlobCase {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const common = {
    id: `hearthnet.blob-transfer.${entry.id}`,
    level: 'required',
    since: sinceOf(entry, location, HEARTHNET_SUITE_VERSION),
  } as const;
  switch (entry['operation']) {
    case 'manifest':
      return { ...common, ...manifestCase(entry, location) };
    case 'read':
      return { ...common, ...readCase(entry, location) };
    case 'put-ready':
      return { ...common, ...putReadyCase(entry, location) };
    case 'put':
      return { ...common, ...putCase(entry, location) };
    case 'serve':
      return { ...common, ...serveCase(entry, location) };
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected manifest, read, put-ready, put or serve');
  }
}

type CaseBody = Pick<BlobCase, 'title' | 'section' | 'requires' | 'run'>;

function manifestCase(entry: FixtureCase, location: string): CaseBody {
  const chunkSizeBytes = readPositiveInteger(entry['chunk_size_bytes'], `${location}.chunk_size_bytes`);
  const expected = readObject(entry['expected'], `${location}.expected`);
  return {
    title: `the manifest of ${entry.id.replace(/^manifest-/, '')} (chunks of ${chunkSizeBytes} bytes)`,
    section: 'HearthNet §1.4, §4.7',
    run: async (impl) => {
      const bytes = readBytes(entry['blob'], `${location}.blob`);
      assertEqual(plainManifest(await impl.manifest(bytes, chunkSizeBytes)), expected, 'manifest');
    },
  };
}

function readCase(entry: FixtureCase, location: string): CaseBody {
  const cid = readString(entry['cid'], `${location}.cid`);
  const sse = readString(entry['sse'], `${location}.sse`);
  const section = 'HearthNet §4.7, §5.3';
  if (entry['error'] === undefined) {
    const expected = readObject(entry['expected'], `${location}.expected`);
    const blob = readBytes(expected['blob'], `${location}.expected.blob`);
    return {
      title: `a file.read stream the client accepts: ${entry.id.replace(/^read-/, '')}`,
      section,
      requires: 'read',
      run: async (impl) => {
        let bytes: Uint8Array;
        try {
          bytes = await impl.read!(cid, sse);
        } catch (error) {
          fail(`the client refused a valid stream: ${String((error as Error)?.message ?? error)}`, error);
        }
        assertEqual(encodeHex(bytes), encodeHex(blob), 'the blob read');
      },
    };
  }
  const reason = readString(entry['error'], `${location}.error`);
  const chunkIndex =
    entry['chunk_index'] === undefined
      ? undefined
      : readNonNegativeInteger(entry['chunk_index'], `${location}.chunk_index`);
  return {
    title: `a file.read stream the client refuses with ${reason}: ${entry.id.replace(/^read-/, '')}`,
    section,
    requires: 'read',
    run: async (impl) => {
      let accepted: Uint8Array | undefined;
      try {
        accepted = await impl.read!(cid, sse);
      } catch (error) {
        const refusal = impl.refusalOf!(error);
        if (refusal === undefined)
          fail(`the client failed without a refusal reason: ${describe(error)}`, error);
        assertEqual(refusal.reason, reason, `the refusal reason (${describe(error)})`);
        if (chunkIndex !== undefined) assertEqual(refusal.chunkIndex, chunkIndex, 'the chunk refused');
        return;
      }
      fail(`the client accepted ${accepted.length} bytes from a stream it must refuse with ${reason}`);
    },
  };
}

function putReadyCase(entry: FixtureCase, location: string): CaseBody {
  const held = readHeld(entry['held'], `${location}.held`);
  const needed = readIndexes(readObject(entry['expected'], `${location}.expected`)['needed'], location);
  return {
    title: `file.put answers ready with the chunks not held: ${entry.id.replace(/^ready-/, '')}`,
    section: 'HearthNet §4.10',
    requires: 'put',
    run: async (impl) => {
      assertEqual([...(await impl.putReady!(entry['manifest'], held))], needed, 'needed');
    },
  };
}

function putCase(entry: FixtureCase, location: string): CaseBody {
  const held = readHeld(entry['held'], `${location}.held`);
  if (!Array.isArray(entry['frames'])) throw invalidFixtureError(`${location}.frames`, 'expected an array');
  const frames = entry['frames'].map((frame: unknown, i) => {
    const record = readObject(frame, `${location}.frames[${i}]`);
    return { event: readString(record['event'], `${location}.frames[${i}].event`), data: record['data'] };
  });
  const section = 'HearthNet §4.10';
  if (entry['error'] === undefined) {
    const expected = readObject(entry['expected'], `${location}.expected`);
    const needed = readIndexes(expected['needed'], `${location}.expected`);
    const received = readNonNegativeInteger(expected['received'], `${location}.expected.received`);
    const blob = readBytes(expected['blob'], `${location}.expected.blob`);
    return {
      title: `file.put stores the blob and answers done: ${entry.id.replace(/^put-/, '')}`,
      section,
      requires: 'put',
      run: async (impl) => {
        const outcome = await impl.put!(entry['manifest'], held, frames);
        assertEqual(outcome.error, undefined, 'the error the node answered');
        assertEqual(outcome.needed === undefined ? undefined : [...outcome.needed], needed, 'needed');
        assertEqual(outcome.received, received, 'received');
        assertTrue(outcome.stored !== undefined, 'the node holds no blob under the manifest cid after done');
        assertEqual(encodeHex(outcome.stored), encodeHex(blob), 'the blob the node holds');
        if (outcome.ms !== undefined) assertElapsed(outcome.ms, 'done.ms');
      },
    };
  }
  const code = readString(entry['error'], `${location}.error`);
  const needed = entry['needed'] === undefined ? undefined : readIndexes(entry['needed'], location);
  return {
    title: `file.put refused with ${code}: ${entry.id.replace(/^put-/, '')}`,
    section,
    requires: 'put',
    run: async (impl) => {
      const outcome = await impl.put!(entry['manifest'], held, frames);
      assertEqual(outcome.error, code, `the error the node answered (done: received ${outcome.received})`);
      assertEqual(
        outcome.needed === undefined ? undefined : [...outcome.needed],
        needed,
        needed === undefined ? 'a ready frame before the refusal' : 'needed',
      );
      assertEqual(outcome.stored, undefined, 'a blob stored from a refused put');
    },
  };
}

function serveCase(entry: FixtureCase, location: string): CaseBody {
  const cid = readString(entry['cid'], `${location}.cid`);
  const stream = readBoolean(entry['stream'], `${location}.stream`);
  const heldRecord = readObject(entry['held'], `${location}.held`);
  const manifests = heldRecord['manifests'];
  if (!Array.isArray(manifests)) throw invalidFixtureError(`${location}.held.manifests`, 'expected an array');
  const chunks = readHeld(heldRecord['chunks'], `${location}.held.chunks`);
  const held = { manifests: manifests as WireBlobManifest[], chunks };
  const asked = stream ? 'a streamed file.read' : 'a file.read without a stream';
  const common = { section: 'HearthNet §4.7', requires: 'serve' } as const;
  if (entry['error'] !== undefined) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `a node refuses ${asked} with ${code}: ${entry.id.replace(/^serve-/, '')}`,
      run: async (impl) => {
        const answer = await impl.serve!(cid, held, stream);
        assertEqual(answer.error, code, 'the error the node answered');
        assertEqual(answer.frames?.length ?? 0, 0, 'frames the node streamed before refusing');
      },
    };
  }
  const expected = readObject(entry['expected'], `${location}.expected`);
  if (expected['output'] !== undefined) {
    const output = readObject(expected['output'], `${location}.expected.output`);
    return {
      ...common,
      title: `a node answers ${asked} of a chunk inline: ${entry.id.replace(/^serve-/, '')}`,
      run: async (impl) => {
        const answer = await impl.serve!(cid, held, stream);
        assertEqual(answer.error, undefined, 'the error the node answered');
        const actual = answer.output as Record<string, unknown> | undefined;
        assertEqual(
          { cid: actual?.['cid'], size_bytes: actual?.['size_bytes'], data_b64: actual?.['data_b64'] },
          output,
          'the output',
        );
        assertElapsed(answer.ms, 'meta.ms');
      },
    };
  }
  if (!Array.isArray(expected['frames']))
    throw invalidFixtureError(`${location}.expected.frames`, 'expected an array');
  const frames = expected['frames'].map((frame: unknown, i) => {
    const record = readObject(frame, `${location}.expected.frames[${i}]`);
    return {
      event: readString(record['event'], `${location}.expected.frames[${i}].event`),
      data: record['data'],
    };
  });
  return {
    ...common,
    title: `a node streams its answer to ${asked}: ${entry.id.replace(/^serve-/, '')}`,
    run: async (impl) => {
      const answer = await impl.serve!(cid, held, stream);
      assertEqual(answer.error, undefined, 'the error the node answered');
      if (answer.frames === undefined) fail('the node answered a streamed file.read without frames');
      assertEqual(servedFrames(answer.frames), frames, 'the frames (chunk frames compared by index)');
      const done = answer.frames.at(-1);
      assertElapsed((done?.data as { ms?: unknown } | undefined)?.ms, 'done.ms');
    },
  };
}

/**
 * A node's frames with only the documented fields, its chunk frames sorted by index (a node may send
 * them in any order), and `done` without `ms`; a manifest's left-out sizes are the ones it implies.
 */
function servedFrames(frames: readonly BlobTransferFrame[]): BlobTransferFrame[] {
  const plain = frames.map(({ event, data }): BlobTransferFrame => {
    const record = (data ?? {}) as Record<string, unknown>;
    switch (event) {
      case 'manifest':
        return { event, data: plainManifest(withImpliedSizes(record)) };
      case 'chunk':
        return {
          event,
          data: {
            i: record['i'],
            cid: record['cid'],
            size_bytes: record['size_bytes'],
            data_b64: record['data_b64'],
          },
        };
      case 'done':
        return { event, data: { chunks: record['chunks'] } };
      default:
        return { event, data };
    }
  });
  const chunks = plain
    .filter((frame) => frame.event === 'chunk')
    .sort((a, b) => Number((a.data as { i: unknown }).i) - Number((b.data as { i: unknown }).i));
  let next = 0;
  return plain.map((frame) => (frame.event === 'chunk' ? chunks[next++]! : frame));
}

/** A wire manifest with the sizes §4.7 lets it leave out: 256 KiB chunks, the last one holding the rest. */
function withImpliedSizes(manifest: Record<string, unknown>): WireBlobManifest {
  const chunkSize = manifest['chunk_size_bytes'] ?? 262144;
  const chunks = Array.isArray(manifest['chunks']) ? (manifest['chunks'] as Record<string, unknown>[]) : [];
  const size = manifest['size_bytes'];
  return {
    ...manifest,
    chunk_size_bytes: chunkSize,
    chunks: chunks.map((chunk, position) =>
      chunk === null || typeof chunk !== 'object' || 'size_bytes' in chunk || typeof size !== 'number'
        ? chunk
        : {
            ...chunk,
            size_bytes:
              position === chunks.length - 1 ? size - Number(chunkSize) * (chunks.length - 1) : chunkSize,
          },
    ),
  } as unknown as WireBlobManifest;
}

/** An `ms` field: the elapsed milliseconds of a call on in-memory data, so a number ≥ 0 and well under an hour. */
function assertElapsed(ms: unknown, field: string): void {
  assertTrue(
    typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms < 3_600_000,
    `${field} is the elapsed milliseconds, got ${String(ms)}`,
  );
}

function readHeld(value: unknown, location: string): HeldChunk[] {
  if (!Array.isArray(value)) throw invalidFixtureError(location, 'expected an array');
  return value.map((chunk: unknown, i) => {
    const record = readObject(chunk, `${location}[${i}]`);
    return {
      cid: readString(record['cid'], `${location}[${i}].cid`),
      bytes: readBytes(record['bytes'], `${location}[${i}].bytes`),
    };
  });
}

function readIndexes(value: unknown, location: string): number[] {
  if (!Array.isArray(value)) throw invalidFixtureError(`${location}.needed`, 'expected an array');
  return value.map((index: unknown, i) => readNonNegativeInteger(index, `${location}.needed[${i}]`));
}

/** Only the documented fields, so extra properties of an implementation's manifest do not fail the case. */
function plainManifest(value: WireBlobManifest): unknown {
  if (value === null || typeof value !== 'object') return value;
  return {
    cid: value.cid,
    size_bytes: value.size_bytes,
    chunk_size_bytes: value.chunk_size_bytes,
    chunks: Array.isArray(value.chunks)
      ? value.chunks.map((c) => ({ i: c?.i, cid: c?.cid, size_bytes: c?.size_bytes }))
      : value.chunks,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
