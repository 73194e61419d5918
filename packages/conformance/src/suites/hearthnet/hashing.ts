import hashingFixture from '../../../fixtures/hearthnet/hashing.json' with { type: 'json' };
import { assertEqual, assertRefuses } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBytes,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readPositiveInteger,
  readString,
  readStringArray,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** A chunked blob as `chunkBlob` describes it (field names of the reference `BlobManifest`). */
export interface ChunkedBlobDescription {
  readonly chunks: readonly { readonly index: number; readonly cid: string; readonly size_bytes: number }[];
  readonly cid: string;
  readonly size_bytes: number;
}

/** The hashing functions under test. Only `blake3Hex` is required; each other one enables its cases. */
export interface HashingImplementation {
  /** BLAKE3 (32-byte output) of `bytes`, as 64 lowercase hex characters. */
  blake3Hex(bytes: Uint8Array): string | Promise<string>;
  /** `blake3:<hex>` of `bytes`. Capability `content-id`. */
  contentId?(bytes: Uint8Array): string | Promise<string>;
  /** The blob CID of a list of chunk ids, in any order. Capability `blob-cid`. */
  blobCid?(chunkCids: readonly string[]): string | Promise<string>;
  /** Cuts `bytes` into chunks of `chunkSizeBytes`. Capability `chunk-blob`. */
  chunkBlob?(
    bytes: Uint8Array,
    chunkSizeBytes: number,
  ): ChunkedBlobDescription | Promise<ChunkedBlobDescription>;
  /**
   * Reads a content id: its algorithm, hex digest and whether it was `prefixed` or `bare`. Capability
   * `parse-content-id`.
   */
  parseContentId?(cid: string): ParsedContentIdDescription | Promise<ParsedContentIdDescription>;
}

/** A content id as `parseContentId` reads it. */
export interface ParsedContentIdDescription {
  readonly algorithm: string;
  readonly hex: string;
  readonly form: 'prefixed' | 'bare';
}

const FIXTURE_NAME = 'hearthnet/hashing.json';
const SECTION_HASH = 'HearthNet §1.4';
const SECTION_CHUNKS = 'HearthNet §1.4, §4.7';
const fixture = readFixtureFile(hashingFixture, FIXTURE_NAME);
/**
 * Version of `hearthnet.hashing`: 1.1.0 added `parse-content-id` and the refusals of malformed chunk
 * ids and chunk sizes.
 */
const HASHING_SUITE_VERSION = '1.1.0';
/** Whether a fixture case is one that the suite version 1.1.0 added. */
const addedIn11 = (entry: FixtureCase) =>
  entry['operation'] === 'parse-content-id' || entry['error'] !== undefined;

/** The members of a HashingImplementation that provide each capability. */
const HASHING_MEMBERS = {
  'content-id': ['contentId'],
  'blob-cid': ['blobCid'],
  'chunk-blob': ['chunkBlob'],
  'parse-content-id': ['parseContentId'],
} as const satisfies CapabilityMembers<HashingImplementation>;

/**
 * BLAKE3 digests, `blake3:` content ids, chunk layouts and blob CIDs from `fixtures/hearthnet/hashing.json`.
 *
 * @example
 * ```ts
 * import { blake3Hex, blobCid, contentId } from '@agentwire/hearthnet';
 * const report = await runSuite(hashingSuite({ blake3Hex, contentId, blobCid }));
 * ```
 */
export function hashingSuite(implementation: HashingImplementation): ConformanceSuite<HashingImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, HASHING_MEMBERS));
  return {
    name: 'hearthnet.hashing',
    version: HASHING_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.flatMap(casesFor),
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(HASHING_MEMBERS, 'HashingImplementation'),
  };
}

type HashingCase = ConformanceCase<HashingImplementation>;

function casesFor(entry: FixtureCase, index: number): HashingCase[] {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const id = `hearthnet.hashing.${entry.id}`;
  const common = {
    level: 'required',
    since: addedIn11(entry) ? HASHING_SUITE_VERSION : HEARTHNET_SUITE_VERSION,
  } as const;
  if (entry['error'] !== undefined) return [refusalCase(entry, location, id, common)];
  switch (entry['operation']) {
    case 'blake3': {
      const input = () => fixtureBytes(entry['input'], `${location}.input`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      const hex = readString(expected['hex'], `${location}.expected.hex`);
      const cid = readString(expected['content_id'], `${location}.expected.content_id`);
      return [
        {
          ...common,
          id,
          title: `BLAKE3 of ${entry.id}`,
          section: SECTION_HASH,
          run: async (impl) => assertEqual(await impl.blake3Hex(input()), hex, 'BLAKE3 hex digest'),
        },
        {
          ...common,
          id: `${id}.content-id`,
          title: `content id of ${entry.id}`,
          section: SECTION_HASH,
          requires: 'content-id',
          run: async (impl) => assertEqual(await impl.contentId?.(input()), cid, 'content id'),
        },
      ];
    }
    case 'chunk-blob': {
      const input = () => fixtureBytes(entry['input'], `${location}.input`);
      const chunkSizeBytes = readPositiveInteger(entry['chunk_size_bytes'], `${location}.chunk_size_bytes`);
      const expected = readChunkedBlob(entry['expected'], `${location}.expected`);
      return [
        {
          ...common,
          id: `${id}.chunks`,
          title: `chunk digests of ${entry.id} (chunks of ${chunkSizeBytes} bytes)`,
          section: SECTION_CHUNKS,
          run: async (impl) => {
            const bytes = input();
            assertEqual(bytes.length, expected.size_bytes, 'fixture input length');
            for (const chunk of expected.chunks) {
              const start = chunk.index * chunkSizeBytes;
              const slice = bytes.subarray(start, start + chunkSizeBytes);
              assertEqual(slice.length, chunk.size_bytes, `size of chunk ${chunk.index}`);
              assertEqual(`blake3:${await impl.blake3Hex(slice)}`, chunk.cid, `id of chunk ${chunk.index}`);
            }
          },
        },
        {
          ...common,
          id: `${id}.blob-cid`,
          title: `blob CID of ${entry.id}`,
          section: SECTION_CHUNKS,
          requires: 'blob-cid',
          run: async (impl) =>
            assertEqual(await impl.blobCid?.(expected.chunks.map((c) => c.cid)), expected.cid, 'blob CID'),
        },
        {
          ...common,
          id: `${id}.chunk-blob`,
          title: `chunk layout of ${entry.id}`,
          section: SECTION_CHUNKS,
          requires: 'chunk-blob',
          run: async (impl) => {
            const actual = await impl.chunkBlob?.(input(), chunkSizeBytes);
            assertEqual(plainChunkedBlob(actual), expected, 'chunked blob');
          },
        },
      ];
    }
    case 'blob-cid': {
      const chunkCids = readStringArray(entry['input'], `${location}.input`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      const cid = readString(expected['cid'], `${location}.expected.cid`);
      return [
        {
          ...common,
          id,
          title: `blob CID of chunk ids given as ${entry.id}`,
          section: SECTION_CHUNKS,
          requires: 'blob-cid',
          run: async (impl) => assertEqual(await impl.blobCid?.(chunkCids), cid, 'blob CID'),
        },
      ];
    }
    case 'parse-content-id': {
      const cid = readString(entry['input'], `${location}.input`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      const want = {
        algorithm: readString(expected['algorithm'], `${location}.expected.algorithm`),
        hex: readString(expected['hex'], `${location}.expected.hex`),
        form: readString(expected['form'], `${location}.expected.form`),
      };
      return [
        {
          ...common,
          id,
          title: `${cid.length > 24 ? `${cid.slice(0, 24)}…` : cid} reads as a ${want.form} ${want.algorithm} id`,
          section: SECTION_HASH,
          requires: 'parse-content-id',
          run: async (impl) => {
            const parsed = await impl.parseContentId?.(cid);
            assertEqual(
              { algorithm: parsed?.algorithm, hex: parsed?.hex, form: parsed?.form },
              want,
              'parsed content id',
            );
          },
        },
      ];
    }
    default:
      throw invalidFixtureError(
        `${location}.operation`,
        'expected "blake3", "chunk-blob", "blob-cid" or "parse-content-id"',
      );
  }
}

/** A case whose input the operation must refuse with the fixture's `error` code. */
function refusalCase(
  entry: FixtureCase,
  location: string,
  id: string,
  common: Pick<HashingCase, 'level' | 'since'>,
): HashingCase {
  const code = readString(entry['error'], `${location}.error`);
  const input = entry['input'];
  switch (entry['operation']) {
    case 'parse-content-id':
      return {
        ...common,
        id,
        title: `parseContentId refuses ${entry.id} (${code})`,
        section: SECTION_HASH,
        requires: 'parse-content-id',
        run: async (impl) => {
          await assertRefuses(
            () => impl.parseContentId?.(input as string),
            { code },
            `parseContentId of ${entry.id}`,
          );
        },
      };
    case 'blob-cid': {
      const chunkCids = readStringArray(input, `${location}.input`);
      return {
        ...common,
        id,
        title: `blobCid refuses ${entry.id} (${code})`,
        section: SECTION_CHUNKS,
        requires: 'blob-cid',
        run: async (impl) => {
          await assertRefuses(() => impl.blobCid?.(chunkCids), { code }, `blobCid of ${entry.id}`);
        },
      };
    }
    case 'chunk-blob': {
      const bytes = () => fixtureBytes(input, `${location}.input`);
      const size = entry['chunk_size_bytes'] as number;
      return {
        ...common,
        id,
        title: `chunkBlob refuses chunks of ${String(size)} bytes (${code})`,
        section: SECTION_CHUNKS,
        requires: 'chunk-blob',
        run: async (impl) => {
          await assertRefuses(
            () => impl.chunkBlob?.(bytes(), size),
            { code },
            `chunkBlob with chunks of ${size}`,
          );
        },
      };
    }
    default:
      throw invalidFixtureError(
        `${location}.operation`,
        'a refusal is expected of parse-content-id, blob-cid or chunk-blob',
      );
  }
}

/** Bytes of a hashing input: a UTF-8 string, `{"$bytes": hex}` or `{"pattern": "i%251", "length": n}`. */
function fixtureBytes(input: unknown, location: string): Uint8Array {
  if (typeof input === 'string') return new TextEncoder().encode(input);
  const record = readObject(input, location);
  if ('pattern' in record) {
    if (record['pattern'] !== 'i%251') throw invalidFixtureError(location, 'the only pattern is "i%251"');
    const length = readNonNegativeInteger(record['length'], `${location}.length`);
    return Uint8Array.from({ length }, (_, i) => i % 251);
  }
  return readBytes(record, location);
}

/** Only the documented fields, so extra properties of an implementation's result do not fail the case. */
function plainChunkedBlob(value: ChunkedBlobDescription | undefined): unknown {
  if (value === undefined || value === null || typeof value !== 'object') return value;
  return {
    chunks: Array.isArray(value.chunks)
      ? value.chunks.map((c) => ({ index: c?.index, cid: c?.cid, size_bytes: c?.size_bytes }))
      : value.chunks,
    cid: value.cid,
    size_bytes: value.size_bytes,
  };
}

function readChunkedBlob(value: unknown, location: string): ChunkedBlobDescription {
  const record = readObject(value, location);
  if (!Array.isArray(record['chunks'])) throw invalidFixtureError(`${location}.chunks`, 'expected an array');
  const chunks = record['chunks'].map((chunk: unknown, i) => {
    const at = `${location}.chunks[${i}]`;
    const c = readObject(chunk, at);
    return {
      index: readNonNegativeInteger(c['index'], `${at}.index`),
      cid: readString(c['cid'], `${at}.cid`),
      size_bytes: readNonNegativeInteger(c['size_bytes'], `${at}.size_bytes`),
    };
  });
  return {
    chunks,
    cid: readString(record['cid'], `${location}.cid`),
    size_bytes: readNonNegativeInteger(record['size_bytes'], `${location}.size_bytes`),
  };
}
