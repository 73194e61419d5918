import { encodeHex } from '@agentwire/internal';
import blobTransferFixture from '../../../fixtures/hearthnet/blob-transfer.json' with { type: 'json' };
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBytes,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readPositiveInteger,
  readString,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_SUITE_VERSION } from './suite-version.js';

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
}

/**
 * The blob transfer under test: a manifest builder, and optionally a verifying `file.read` client
 * (capability `read`) and the `file.put` server side (capability `put`).
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
}

const FIXTURE_NAME = 'hearthnet/blob-transfer.json';
const fixture = readFixtureFile(blobTransferFixture, FIXTURE_NAME);

/** The members of a BlobTransferImplementation that provide each capability. */
const BLOB_TRANSFER_MEMBERS = {
  read: ['read', 'refusalOf'],
  put: ['putReady', 'put'],
} as const satisfies CapabilityMembers<BlobTransferImplementation>;

/**
 * Blob manifests, verified `file.read` streams (valid, reordered, corrupted, cut short) and `file.put`
 * exchanges from `fixtures/hearthnet/blob-transfer.json`.
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
    version: HEARTHNET_SUITE_VERSION,
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
    since: HEARTHNET_SUITE_VERSION,
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
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected manifest, read, put-ready or put');
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
