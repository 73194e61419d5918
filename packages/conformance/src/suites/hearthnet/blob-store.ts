import { blake3Hasher, blobCid, chunkBlob, contentId, type Hasher, sha256Hasher } from '@agentwire/hearthnet';
import type { BlobManifest, BlobStore, BlobStoreOptions } from '@agentwire/hearthnet/blobs';
import { assertEqual, assertRejects, assertTrue } from '../../assert.js';
import type { ConformanceCase, ConformanceLevel, ConformanceSuite } from '../../suite.js';
import { HEARTHNET_SUITE_VERSION } from './suite-version.js';

/**
 * Version of `hearthnet.blob-store`: 1.1.0 requires every refusal of a malformed CID or `options.pin`
 * to name the argument (`path`), as the other malformed arguments already did.
 */
const BLOB_STORE_SUITE_VERSION = '1.1.0';

/** What a store reports through `onEvent` (contract §7.2): `file.cid.advertised` or `file.cid.unpinned`. */
type BlobStoreEvent = Parameters<NonNullable<BlobStoreOptions['onEvent']>>[0];

/** How a capability handler answers an error on the wire (contract §9): its code and HTTP status. */
export interface BlobStoreWireError {
  readonly code: string;
  readonly status: number;
}

/** Options of {@link blobStoreSuite}. */
export interface BlobStoreSuiteOptions {
  /**
   * Builds a new, empty store with these options (the cases pass a small `chunkSizeBytes`, a `hasher`,
   * a `capacityBytes` or an `onEvent` hook). Called by every case, often more than once; must throw or
   * reject, with code `invalid_blob_store_options`, for options the store cannot use.
   */
  readonly create: (options: BlobStoreOptions) => BlobStore | Promise<BlobStore>;
  /**
   * How a capability handler would answer an error the store threw (e.g. `asHearthNetError`). When
   * given, the refusal cases also check that bad input is answered `bad_request` (400).
   */
  readonly wireError?: (error: unknown) => BlobStoreWireError;
  /** Called once after the last case (e.g. to remove the folders `create` made). */
  readonly dispose?: () => void | Promise<void>;
}

/** What every case of {@link blobStoreSuite} receives. */
export interface BlobStoreContext {
  /** `options.create` with the suite's small default chunk size under the case's options. */
  readonly create: (options?: BlobStoreOptions) => Promise<BlobStore>;
  readonly wireError: ((error: unknown) => BlobStoreWireError) | undefined;
}

const SUITE_NAME = 'hearthnet.blob-store';
const SECTION_CHUNKS = 'HearthNet §1.4, §4.7';
const SECTION_PUT = 'HearthNet §4.10';
const SECTION_EVENTS = 'HearthNet §4.7–§4.10, §7.2';
/** Small chunks, so a few bytes make a blob of several chunks. */
const CHUNK = 4;
/** How many generated blobs each sweep case stores. */
const SWEEP_SAMPLES = 24;
const utf8 = new TextEncoder();

function text(value: string): Uint8Array {
  return utf8.encode(value);
}

/** The wire manifest of `bytes` cut into `chunkSizeBytes` chunks, as the reference chunker makes it. */
function manifestOf(bytes: Uint8Array, chunkSizeBytes = CHUNK, hasher: Hasher = blake3Hasher): BlobManifest {
  const blob = chunkBlob(bytes, { chunkSizeBytes, hasher });
  return {
    cid: blob.cid,
    size_bytes: blob.size_bytes,
    chunk_size_bytes: chunkSizeBytes,
    chunks: blob.chunks.map((c) => ({ i: c.index, cid: c.cid, size_bytes: c.size_bytes })),
  };
}

/** Chunk `i` of `bytes` as `manifest` cuts it. */
function chunkOf(bytes: Uint8Array, manifest: BlobManifest, i: number): Uint8Array {
  const start = i * manifest.chunk_size_bytes;
  return bytes.slice(start, start + (manifest.chunks[i]?.size_bytes ?? 0));
}

/** Puts the chunks of `manifest` (only those at `indexes`, when given) one by one. */
async function putChunksOf(
  store: BlobStore,
  bytes: Uint8Array,
  manifest: BlobManifest,
  indexes?: readonly number[],
): Promise<void> {
  for (const chunk of manifest.chunks) {
    if (indexes === undefined || indexes.includes(chunk.i))
      await store.putChunk(chunk.cid, chunkOf(bytes, manifest, chunk.i));
  }
}

/** The fields of a thrown store error the cases check. */
interface ExpectedError {
  readonly code: string;
  readonly path?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Requires `error` to carry `expected.code` (and `path`, and each given detail). */
function assertError(error: unknown, expected: ExpectedError, what: string): void {
  const actual = (error ?? {}) as { code?: unknown; path?: unknown; details?: Record<string, unknown> };
  assertEqual(actual.code, expected.code, `${what}: error code`);
  if (expected.path !== undefined) assertEqual(actual.path, expected.path, `${what}: error path`);
  for (const [key, value] of Object.entries(expected.details ?? {}))
    assertEqual(actual.details?.[key], value, `${what}: details.${key}`);
}

/** Requires `action` to reject with `expected` and, when the context maps errors to the wire, `bad_request`. */
async function assertRefused(
  ctx: BlobStoreContext,
  action: () => unknown,
  expected: ExpectedError,
  what: string,
): Promise<unknown> {
  const error = await assertRejects(action, `${what} must be refused`);
  assertError(error, expected, what);
  if (ctx.wireError !== undefined) {
    const { code, status } = ctx.wireError(error);
    assertEqual({ code, status }, { code: 'bad_request', status: 400 }, `${what}: answered on the wire`);
  }
  return error;
}

/** A small deterministic generator (mulberry32), so the sweep cases try the same blobs on every run. */
function generator(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below);
  };
}

/** Blobs and chunk sizes for the sweeps: the edges first (empty, one byte, exact multiples), then generated ones. */
function sweepSamples(seed: number, maxLength: number, maxChunk: number): [Uint8Array, number][] {
  const next = generator(seed);
  const bytes = (length: number) => Uint8Array.from({ length }, () => next(256));
  const samples: [Uint8Array, number][] = [
    [bytes(0), 1],
    [bytes(1), maxChunk],
    [bytes(maxChunk * 3), maxChunk],
    [new Uint8Array(4 * 8).fill(7), 4],
  ];
  while (samples.length < SWEEP_SAMPLES) samples.push([bytes(next(maxLength + 1)), 1 + next(maxChunk)]);
  return samples;
}

/** The cases `hearthnet.blob-store` 1.1.0 added; the others date from 1.0.0. */
const ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'capacity-exactly-full',
  'capacity-collects-to-fit-exactly',
  'capacity-shared-chunk-not-collectable',
  'capacity-keeps-a-chunk-another-blob-uses',
  'manifest-reordered-in-part',
  'gc-under-target',
]);

function storeCase(
  id: string,
  title: string,
  section: string,
  run: (ctx: BlobStoreContext) => Promise<void>,
  level: ConformanceLevel = 'required',
): ConformanceCase<BlobStoreContext> {
  const since = ADDED_IN_1_1.has(id) ? BLOB_STORE_SUITE_VERSION : HEARTHNET_SUITE_VERSION;
  return { id: `${SUITE_NAME}.${id}`, title, section, level, since, run };
}

const blobCases: readonly ConformanceCase<BlobStoreContext>[] = [
  storeCase(
    'blob-round-trip',
    'stores a blob whole and reads it back, with the manifest of the reference chunker',
    SECTION_CHUNKS,
    async ({ create }) => {
      const store = await create();
      const bytes = text('hello, hearth!');
      const manifest = await store.putBlob(bytes);
      assertEqual(manifest, manifestOf(bytes), 'manifest');
      assertEqual(
        manifest.chunks.map((c) => c.size_bytes),
        [4, 4, 4, 2],
        'chunk sizes',
      );
      assertEqual(await store.readBlob(manifest.cid), bytes, 'blob read back');
      assertEqual(await store.getManifest(manifest.cid), manifest, 'stored manifest');
      assertEqual(await store.list(), [manifest.cid], 'list');
      assertEqual(await store.usage(), { bytes: 14, chunks: 4, blobs: 1 }, 'usage');
    },
  ),
  storeCase('empty-blob', 'stores an empty blob as one empty chunk', SECTION_CHUNKS, async ({ create }) => {
    const store = await create();
    const manifest = await store.putBlob(new Uint8Array(0));
    assertEqual(manifest.chunks, [{ i: 0, cid: contentId(new Uint8Array(0)), size_bytes: 0 }], 'chunks');
    assertEqual(await store.readBlob(manifest.cid), new Uint8Array(0), 'blob read back');
    assertEqual(await store.usage(), { bytes: 0, chunks: 1, blobs: 1 }, 'usage');
  }),
  storeCase(
    'shared-chunks',
    'counts a chunk shared by blobs, or repeated in one, once',
    SECTION_CHUNKS,
    async ({ create }) => {
      const store = await create();
      await store.putBlob(text('aaaaaaaabbbb'));
      await store.putBlob(text('aaaacccc'));
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 2 }, 'usage');
      await store.putBlob(text('aaaacccc'));
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 2 }, 'usage after the same blob again');
    },
  ),
  storeCase(
    'absent',
    'reads nothing for blobs and chunks it does not hold',
    SECTION_CHUNKS,
    async ({ create }) => {
      const store = await create();
      const cid = contentId('nothing here');
      assertEqual(await store.readBlob(cid), undefined, 'readBlob');
      assertEqual(await store.getManifest(cid), undefined, 'getManifest');
      assertEqual(await store.getChunk(cid), undefined, 'getChunk');
      assertEqual(await store.hasChunk(cid), false, 'hasChunk');
    },
  ),
  storeCase(
    'list-prefix',
    'lists blob CIDs sorted, filtered by prefix (file.list)',
    'HearthNet §4.9',
    async ({ create }) => {
      const store = await create();
      const cids: string[] = [];
      for (const name of ['one', 'two', 'three', 'four']) cids.push((await store.putBlob(text(name))).cid);
      const sorted = [...cids].sort();
      assertEqual(await store.list(), sorted, 'list()');
      const prefix = sorted[2]!.slice(0, 9);
      assertEqual(
        await store.list(prefix),
        sorted.filter((cid) => cid.startsWith(prefix)),
        `list(${prefix})`,
      );
      assertEqual(await store.list('sha256:'), [], 'list(sha256:)');
      assertEqual(await store.list(''), sorted, "list('')");
    },
  ),
  storeCase(
    'named-with-hasher',
    'names new blobs with the hasher it was given (sha256: ids with SHA-256)',
    SECTION_CHUNKS,
    async ({ create }) => {
      const store = await create({ hasher: sha256Hasher });
      const bytes = text('sha-named blob');
      const manifest = await store.putBlob(bytes);
      assertEqual(manifest, manifestOf(bytes, CHUNK, sha256Hasher), 'manifest');
      assertEqual(await store.readBlob(manifest.cid), bytes, 'blob read back');
    },
  ),
  storeCase(
    'no-aliasing',
    'copies bytes in and out: a caller changing its array changes nothing stored',
    SECTION_CHUNKS,
    async ({ create }) => {
      const store = await create();
      const bytes = text('a blob of mine');
      const manifest = await store.putBlob(bytes);
      bytes.fill(0);
      const chunk = await store.getChunk(manifest.chunks[0]!.cid);
      chunk?.fill(0);
      assertEqual(
        await store.readBlob(manifest.cid),
        text('a blob of mine'),
        'blob after both arrays changed',
      );
      const loose = text('mine');
      await store.putChunk(contentId('mine'), loose);
      loose.fill(0);
      assertEqual(await store.getChunk(contentId('mine')), text('mine'), 'chunk after its array changed');
    },
  ),
];

const chunkCases: readonly ConformanceCase<BlobStoreContext>[] = [
  storeCase(
    'chunk-verified',
    'verifies chunk bytes against the CID before storing them (chunk_mismatch, bad_request)',
    SECTION_PUT,
    async (ctx) => {
      const store = await ctx.create();
      const cid = contentId('right');
      await assertRefused(
        ctx,
        () => store.putChunk(cid, text('wrong')),
        { code: 'chunk_mismatch', details: { expectedCid: cid, actualCid: contentId('wrong') } },
        'bytes that do not hash to the CID',
      );
      assertEqual(await store.hasChunk(cid), false, 'hasChunk after the refusal');
      assertEqual(await store.usage(), { bytes: 0, chunks: 0, blobs: 0 }, 'usage after the refusal');
      await store.putChunk(cid, text('right'));
      assertEqual(await store.getChunk(cid), text('right'), 'the right bytes');
      assertEqual(await store.hasChunk(cid), true, 'hasChunk');
    },
  ),
  storeCase(
    'chunk-algorithm-by-prefix',
    'checks a sha256: chunk with SHA-256 and a blake3: chunk with BLAKE3, whatever its hasher',
    SECTION_CHUNKS,
    async ({ create }) => {
      for (const hasher of [blake3Hasher, sha256Hasher]) {
        const store = await create({ hasher });
        await store.putChunk(contentId('x', sha256Hasher), text('x'));
        await store.putChunk(contentId('y', blake3Hasher), text('y'));
        const error = await assertRejects(
          () => store.putChunk(`sha256:${contentId('z').slice('blake3:'.length)}`, text('z')),
          `a BLAKE3 digest labelled sha256: (store hashing with ${hasher.algorithm})`,
        );
        assertError(error, { code: 'chunk_mismatch' }, 'a BLAKE3 digest labelled sha256:');
        assertEqual(await store.getChunk(contentId('x', sha256Hasher)), text('x'), 'the sha256: chunk');
        assertEqual(
          await store.hasChunk(`blake3:${contentId('x', sha256Hasher).slice('sha256:'.length)}`),
          false,
          'the SHA-256 digest under a blake3: label',
        );
      }
    },
  ),
  storeCase(
    'injected-hasher',
    'checks chunks of its algorithm with the hasher it was given, others with the built-in one',
    SECTION_CHUNKS,
    async ({ create }) => {
      let calls = 0;
      const countingBlake3: Hasher = {
        algorithm: 'blake3',
        digest: (data) => {
          calls += 1;
          return blake3Hasher.digest(data);
        },
      };
      const store = await create({ hasher: countingBlake3 });
      await store.putChunk(contentId('counted'), text('counted'));
      assertEqual(calls, 1, 'digests by the injected hasher after a blake3: chunk');
      await store.putChunk(contentId('not counted', sha256Hasher), text('not counted'));
      assertEqual(calls, 1, 'digests by the injected hasher after a sha256: chunk');
    },
    'recommended',
  ),
  storeCase(
    'chunk-idempotent',
    'takes the same chunk again, also many times at once, as one chunk',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      const cid = contentId('same');
      await Promise.all(Array.from({ length: 8 }, () => store.putChunk(cid, text('same'))));
      await store.putChunk(cid, text('same'));
      assertEqual(await store.usage(), { bytes: 4, chunks: 1, blobs: 0 }, 'usage');
      assertEqual(await store.getChunk(cid), text('same'), 'the chunk');
    },
  ),
];

const manifestCases: readonly ConformanceCase<BlobStoreContext>[] = [
  storeCase(
    'missing-chunks',
    'lists the chunks a manifest still needs, ascending, a repeated chunk at each index',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      const bytes = text('0123456789abcdefghij');
      const manifest = manifestOf(bytes);
      assertEqual(await store.missingChunks(manifest), [0, 1, 2, 3, 4], 'nothing held');
      await putChunksOf(store, bytes, manifest, [1, 3]);
      assertEqual(await store.missingChunks(manifest), [0, 2, 4], 'chunks 1 and 3 held');
      await putChunksOf(store, bytes, manifest);
      assertEqual(await store.missingChunks(manifest), [], 'every chunk held');
      const repeated = text('zzzzyyyyzzzz');
      const repeatedManifest = manifestOf(repeated);
      assertEqual(await store.missingChunks(repeatedManifest), [0, 1, 2], 'a chunk repeated at 0 and 2');
      await putChunksOf(store, repeated, repeatedManifest, [1]);
      assertEqual(await store.missingChunks(repeatedManifest), [0, 2], 'the repeated chunk still missing');
    },
  ),
  storeCase(
    'manifest-needs-every-chunk',
    'stores a manifest only once every chunk is held (missing_chunks), then advertises it once',
    SECTION_EVENTS,
    async (ctx) => {
      const events: BlobStoreEvent[] = [];
      const store = await ctx.create({ onEvent: (event) => events.push(event) });
      const bytes = text('0123456789');
      const manifest = manifestOf(bytes);
      await putChunksOf(store, bytes, manifest, [0]);
      await assertRefused(
        ctx,
        () => store.putManifest(manifest),
        { code: 'missing_chunks', details: { cid: manifest.cid, missing: [1, 2] } },
        'a manifest whose chunks 1 and 2 are not held',
      );
      assertEqual(await store.getManifest(manifest.cid), undefined, 'manifest after the refusal');
      assertEqual(events, [], 'events after the refusal');
      await putChunksOf(store, bytes, manifest);
      await store.putManifest(manifest);
      await store.putManifest(manifest);
      assertEqual(events, [{ type: 'file.cid.advertised', cid: manifest.cid, size_bytes: 10 }], 'events');
      assertEqual(await store.readBlob(manifest.cid), bytes, 'blob read back');
    },
  ),
  storeCase(
    'manifest-known-fields',
    'keeps only the known fields of a manifest (cid, size_bytes, chunk_size_bytes, chunks)',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      const bytes = text('abc');
      const manifest = { ...manifestOf(bytes), filename: 'abc.txt' } as BlobManifest;
      await putChunksOf(store, bytes, manifest);
      await store.putManifest(manifest);
      assertEqual(await store.getManifest(manifest.cid), manifestOf(bytes), 'stored manifest');
    },
  ),
  storeCase(
    'manifest-inconsistent',
    'refuses manifests that do not add up (invalid_blob_manifest, naming the field)',
    SECTION_PUT,
    async (ctx) => {
      const store = await ctx.create();
      const bytes = text('0123456789');
      const good = manifestOf(bytes);
      await putChunksOf(store, bytes, good);
      const [c0, c1, c2] = good.chunks as [
        BlobManifest['chunks'][0],
        BlobManifest['chunks'][0],
        BlobManifest['chunks'][0],
      ];
      const bad: [string, unknown][] = [
        ['cid', { ...good, cid: contentId('other') }],
        ['size_bytes', { ...good, size_bytes: 11 }],
        ['chunks[1].i', { ...good, chunks: [c0, { ...c1, i: 2 }, c2] }],
        ['chunks[1].size_bytes', { ...good, chunks: [c0, { ...c1, size_bytes: 3 }, c2] }],
        ['chunks', { ...good, chunks: [] }],
        ['chunk_size_bytes', { ...good, chunk_size_bytes: 0 }],
        ['chunks[0].cid', { ...good, chunks: [{ ...c0, cid: c0.cid.slice('blake3:'.length) }, c1, c2] }],
        ['$', null],
      ];
      for (const [field, manifest] of bad) {
        for (const [method, call] of [
          ['putManifest', () => store.putManifest(manifest as BlobManifest)],
          ['missingChunks', () => store.missingChunks(manifest as BlobManifest)],
        ] as const) {
          await assertRefused(
            ctx,
            call,
            { code: 'invalid_blob_manifest', path: field },
            `${method} of a manifest wrong at ${field}`,
          );
        }
      }
      assertEqual(await store.list(), [], 'list after the refusals');
    },
  ),
  storeCase(
    'manifest-reordered',
    'refuses a manifest that reorders the chunks of a stored blob (the blob CID ignores order)',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      const bytes = text('aaaabbbb');
      const manifest = await store.putBlob(bytes);
      const swapped = {
        ...manifest,
        chunks: [manifest.chunks[1]!, manifest.chunks[0]!].map((c, i) => ({ ...c, i })),
      };
      assertEqual(
        swapped.cid,
        blobCid(swapped.chunks.map((c) => c.cid)),
        'the swapped manifest names the same CID',
      );
      const refused = await assertRejects(() => store.putManifest(swapped), 'a reordered manifest');
      assertError(refused, { code: 'invalid_blob_manifest' }, 'a reordered manifest');
      const again = await assertRejects(() => store.putBlob(text('bbbbaaaa')), 'the reordered bytes');
      assertError(again, { code: 'invalid_blob_manifest' }, 'the reordered bytes');
      assertEqual(await store.readBlob(manifest.cid), bytes, 'the stored blob');
    },
  ),
  storeCase(
    'manifest-reordered-in-part',
    'refuses a manifest that keeps some chunks of a stored blob in place and moves others',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      const bytes = text('aaaabbbbcccc');
      const manifest = await store.putBlob(bytes);
      const [first, second, third] = manifest.chunks;
      const moved = {
        ...manifest,
        chunks: [first!, third!, second!].map((c, i) => ({ ...c, i })),
      };
      const refused = await assertRejects(
        () => store.putManifest(moved),
        'a manifest moving two of three chunks',
      );
      assertError(
        refused,
        { code: 'invalid_blob_manifest', path: 'chunks' },
        'a manifest moving two of three chunks',
      );
      assertEqual(await store.getManifest(manifest.cid), manifest, 'the stored manifest');
      assertEqual(await store.readBlob(manifest.cid), bytes, 'the stored blob');
    },
  ),
  storeCase(
    'manifest-chunk-size',
    'refuses a manifest whose chunk size differs from the chunk held under that CID',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      await store.putChunk(contentId('abc'), text('abc'));
      const lying = {
        cid: blobCid([contentId('abc')]),
        size_bytes: 2,
        chunk_size_bytes: 4,
        chunks: [{ i: 0, cid: contentId('abc'), size_bytes: 2 }],
      };
      for (const [method, call] of [
        ['missingChunks', () => store.missingChunks(lying)],
        ['putManifest', () => store.putManifest(lying)],
      ] as const) {
        const error = await assertRejects(call, `${method} of a manifest lying about a held chunk`);
        assertError(error, { code: 'invalid_blob_manifest', path: 'chunks[0].size_bytes' }, method);
      }
    },
  ),
];

const pinCases: readonly ConformanceCase<BlobStoreContext>[] = [
  storeCase(
    'pins',
    'pins and unpins (also blobs not held yet), reporting each removed pin as file.cid.unpinned',
    SECTION_EVENTS,
    async ({ create }) => {
      const events: BlobStoreEvent[] = [];
      const store = await create({ onEvent: (event) => events.push(event) });
      const { cid } = await store.putBlob(text('keep me'), { pin: true });
      assertEqual(await store.isPinned(cid), true, 'pinned by putBlob');
      await store.pin(cid);
      assertEqual(await store.unpin(cid), true, 'first unpin');
      assertEqual(await store.unpin(cid), false, 'second unpin');
      assertEqual(await store.isPinned(cid), false, 'pinned after unpin');
      const notHeld = contentId('later');
      await store.pin(notHeld);
      assertEqual(await store.isPinned(notHeld), true, 'a blob pinned before it is held');
      assertEqual(
        events.filter((e) => e.type === 'file.cid.unpinned'),
        [{ type: 'file.cid.unpinned', cid }],
        'unpin events',
      );
    },
  ),
  storeCase(
    'gc-oldest-first',
    'collects unpinned blobs oldest first down to the target, keeping pinned ones and shared chunks',
    SECTION_EVENTS,
    async ({ create }) => {
      const events: BlobStoreEvent[] = [];
      const store = await create({ onEvent: (event) => events.push(event) });
      const oldest = await store.putBlob(text('aaaabbbb'));
      const pinned = await store.putBlob(text('bbbbcccc'), { pin: true });
      const middle = await store.putBlob(text('dddd'));
      const newest = await store.putBlob(text('eeee'));
      events.length = 0;
      const before = await store.usage();
      assertEqual([before.bytes, before.chunks], [20, 5], 'bytes and chunks before collecting');
      assertEqual(
        await store.collectGarbage(12),
        { removedBlobs: [oldest.cid, middle.cid], freedBytes: 8 },
        'collectGarbage(12)',
      );
      assertEqual(
        events,
        [
          { type: 'file.cid.unpinned', cid: oldest.cid },
          { type: 'file.cid.unpinned', cid: middle.cid },
        ],
        'events',
      );
      assertEqual(await store.list(), [pinned.cid, newest.cid].sort(), 'list');
      assertEqual(await store.readBlob(pinned.cid), text('bbbbcccc'), 'the pinned blob');
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 2 }, 'usage');
      assertEqual(
        await store.collectGarbage(),
        { removedBlobs: [newest.cid], freedBytes: 4 },
        'collectGarbage()',
      );
      assertEqual(
        await store.collectGarbage(),
        { removedBlobs: [], freedBytes: 0 },
        'collectGarbage() again',
      );
      assertEqual(await store.list(), [pinned.cid], 'list at the end');
    },
  ),
  storeCase(
    'gc-under-target',
    'collects nothing when the store holds no more than the target already',
    SECTION_EVENTS,
    async ({ create }) => {
      const events: BlobStoreEvent[] = [];
      const store = await create({ onEvent: (event) => events.push(event) });
      const first = await store.putBlob(text('aaaabbbb'));
      const second = await store.putBlob(text('cccc'));
      events.length = 0;
      for (const target of [12, 1_000_000]) {
        assertEqual(
          await store.collectGarbage(target),
          { removedBlobs: [], freedBytes: 0 },
          `collectGarbage(${target}) with 12 bytes held`,
        );
      }
      assertEqual(events, [], 'events');
      assertEqual(await store.list(), [first.cid, second.cid].sort(), 'list');
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 2 }, 'usage');
    },
  ),
  storeCase(
    'gc-keeps-covered-blob',
    'keeps an unpinned blob whose chunks all belong to a pinned one (collecting it frees nothing)',
    SECTION_EVENTS,
    async ({ create }) => {
      const store = await create();
      const pinned = await store.putBlob(text('aaaabbbb'), { pin: true });
      const copy = await store.putBlob(text('bbbb'));
      assertEqual(await store.collectGarbage(), { removedBlobs: [], freedBytes: 0 }, 'collectGarbage()');
      assertEqual(await store.list(), [pinned.cid, copy.cid].sort(), 'list');
    },
  ),
  storeCase(
    'gc-keeps-uploads',
    'never collects chunks that belong to no blob yet (an upload in progress)',
    SECTION_PUT,
    async ({ create }) => {
      const store = await create();
      await store.putChunk(contentId('part'), text('part'));
      assertEqual(await store.collectGarbage(), { removedBlobs: [], freedBytes: 0 }, 'collectGarbage()');
      assertEqual(await store.hasChunk(contentId('part')), true, 'the loose chunk');
    },
  ),
  storeCase(
    'capacity-makes-room',
    'makes room for a chunk by collecting unpinned blobs when it would pass the capacity',
    SECTION_EVENTS,
    async ({ create }) => {
      const events: BlobStoreEvent[] = [];
      const store = await create({ capacityBytes: 12, onEvent: (event) => events.push(event) });
      const old = await store.putBlob(text('aaaa'));
      const pinned = await store.putBlob(text('bbbb'), { pin: true });
      const recent = await store.putBlob(text('cccc'));
      await store.putChunk(contentId('dddd'), text('dddd'));
      assertEqual(await store.list(), [pinned.cid, recent.cid].sort(), 'list');
      assertEqual(events.at(-1), { type: 'file.cid.unpinned', cid: old.cid }, 'last event');
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 2 }, 'usage');
    },
  ),
  storeCase(
    'capacity-exceeded',
    'refuses a chunk that cannot fit with capacity_exceeded (429), storing and collecting nothing',
    'HearthNet §4.10, §9',
    async ({ create }) => {
      const store = await create({ capacityBytes: 10 });
      const pinned = await store.putBlob(text('aaaabbbb'), { pin: true });
      const unpinned = await store.putBlob(text('cc'));
      const error = await assertRejects(
        () => store.putChunk(contentId('dddd'), text('dddd')),
        'a chunk that does not fit',
      );
      const { name, code, status } = error as { name?: unknown; code?: unknown; status?: unknown };
      assertEqual(
        { name, code, status },
        { name: 'CapacityExceededError', code: 'capacity_exceeded', status: 429 },
        'the error',
      );
      assertEqual(await store.hasChunk(contentId('dddd')), false, 'the refused chunk');
      assertEqual(await store.list(), [pinned.cid, unpinned.cid].sort(), 'list');
      const blobError = await assertRejects(
        () => store.putBlob(text('0123456789ab')),
        'a blob that does not fit',
      );
      assertEqual((blobError as { code?: unknown }).code, 'capacity_exceeded', 'the blob error code');
      assertEqual(await store.usage(), { bytes: 10, chunks: 3, blobs: 2 }, 'usage');
      await store.unpin(pinned.cid);
      await store.putChunk(contentId('dddd'), text('dddd'));
      assertEqual(await store.hasChunk(contentId('dddd')), true, 'the chunk once the pin is gone');
    },
  ),
  storeCase(
    'capacity-exactly-full',
    'fills the capacity to the byte without collecting anything',
    'HearthNet §4.10',
    async ({ create }) => {
      const store = await create({ capacityBytes: 12 });
      const first = await store.putBlob(text('aaaa'));
      const second = await store.putBlob(text('bbbb'));
      await store.putChunk(contentId('cccc'), text('cccc'));
      assertEqual(await store.list(), [first.cid, second.cid].sort(), 'list');
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 2 }, 'usage');
    },
  ),
  storeCase(
    'capacity-collects-to-fit-exactly',
    'collects every unpinned blob when that makes exactly enough room for a chunk of the whole capacity',
    'HearthNet §4.10',
    async ({ create }) => {
      const store = await create({ capacityBytes: 4 });
      await store.putBlob(text('aaaa'));
      await store.putChunk(contentId('bbbb'), text('bbbb'));
      assertEqual(await store.list(), [], 'list');
      assertEqual(await store.usage(), { bytes: 4, chunks: 1, blobs: 0 }, 'usage');
    },
  ),
  storeCase(
    'capacity-shared-chunk-not-collectable',
    'counts a chunk a pinned blob shares as not collectable, and refuses what only it would make room for',
    'HearthNet §4.10, §9',
    async ({ create }) => {
      const store = await create({ capacityBytes: 8 });
      const pinned = await store.putBlob(text('aaaa'), { pin: true });
      const unpinned = await store.putBlob(text('aaaabbbb'));
      const error = await assertRejects(
        () => store.putChunk(contentId('cccccccc'), text('cccccccc')),
        'a chunk that fits only if the shared chunk went',
      );
      assertEqual((error as { code?: unknown }).code, 'capacity_exceeded', 'the error code');
      assertEqual(await store.list(), [pinned.cid, unpinned.cid].sort(), 'list (nothing collected)');
      assertEqual(await store.usage(), { bytes: 8, chunks: 2, blobs: 2 }, 'usage');
    },
  ),
  storeCase(
    'capacity-keeps-a-chunk-another-blob-uses',
    'making room removes an unpinned blob but keeps the chunk another blob still uses',
    'HearthNet §4.10',
    async ({ create }) => {
      const store = await create({ capacityBytes: 12 });
      const first = await store.putBlob(text('aaaabbbb'));
      const second = await store.putBlob(text('bbbbcccc'));
      await store.putChunk(contentId('dddd'), text('dddd'));
      assertEqual(await store.list(), [second.cid], 'list');
      assertEqual(await store.readBlob(first.cid), undefined, 'the collected blob');
      assertEqual(await store.readBlob(second.cid), text('bbbbcccc'), 'the blob that shares a chunk');
      assertEqual(await store.usage(), { bytes: 12, chunks: 3, blobs: 1 }, 'usage');
    },
  ),
  storeCase(
    'event-hook-throws',
    'still applies a change when the event hook throws, then rejects with its error',
    SECTION_EVENTS,
    async ({ create }) => {
      const hookError = new Error('hook failed');
      const store = await create({
        onEvent: () => {
          throw hookError;
        },
      });
      const error = await assertRejects(() => store.putBlob(text('abc')), 'putBlob with a throwing hook');
      assertTrue(error === hookError, 'putBlob rejects with the hook error');
      assertEqual((await store.list()).length, 1, 'blobs held');
    },
    'recommended',
  ),
];

const MALFORMED_CIDS: readonly unknown[] = [
  'blake3:../../../etc/passwd',
  `../${'a'.repeat(62)}`,
  'a'.repeat(64),
  `BLAKE3:${'a'.repeat(64)}`,
  `blake3:${'A'.repeat(64)}`,
  `md5:${'a'.repeat(64)}`,
  `blake3:${'a'.repeat(63)}/`,
  '',
  42,
  undefined,
];

const inputCases: readonly ConformanceCase<BlobStoreContext>[] = [
  storeCase(
    'malformed-cids',
    'refuses malformed CIDs (path tricks, other cases, other algorithms) with invalid_blob_store_input naming the argument',
    SECTION_CHUNKS,
    async (ctx) => {
      const store = await ctx.create();
      for (const value of MALFORMED_CIDS) {
        const cid = value as string;
        for (const [method, call, path] of [
          ['hasChunk', () => store.hasChunk(cid), 'cid'],
          ['getChunk', () => store.getChunk(cid), 'cid'],
          ['putChunk', () => store.putChunk(cid, text('x')), 'cid'],
          ['getManifest', () => store.getManifest(cid), 'blobCid'],
          ['readBlob', () => store.readBlob(cid), 'blobCid'],
          ['pin', () => store.pin(cid), 'blobCid'],
          ['unpin', () => store.unpin(cid), 'blobCid'],
          ['isPinned', () => store.isPinned(cid), 'blobCid'],
        ] as const) {
          await assertRefused(
            ctx,
            call,
            { code: 'invalid_blob_store_input', path },
            `${method}(${JSON.stringify(value)})`,
          );
        }
      }
    },
  ),
  storeCase(
    'malformed-arguments',
    'refuses other malformed arguments with invalid_blob_store_input, naming the argument',
    SECTION_CHUNKS,
    async (ctx) => {
      const store = await ctx.create();
      const cid = contentId('x');
      const refusals: [string, () => unknown, string][] = [
        ['putChunk of a string', () => store.putChunk(cid, 'x' as unknown as Uint8Array), 'bytes'],
        ['putBlob of an array', () => store.putBlob([1, 2] as unknown as Uint8Array), 'bytes'],
        [
          'putBlob with pin "yes"',
          () => store.putBlob(text('x'), { pin: 'yes' as unknown as boolean }),
          'options.pin',
        ],
        ['list(7)', () => store.list(7 as unknown as string), 'prefix'],
        ...[-1, 1.5, Number.NaN, '3'].map((target): [string, () => unknown, string] => [
          `collectGarbage(${String(target)})`,
          () => store.collectGarbage(target as number),
          'targetBytes',
        ]),
      ];
      for (const [what, call, path] of refusals) {
        const error = await assertRejects(call, what);
        assertError(error, { code: 'invalid_blob_store_input', path }, what);
      }
    },
  ),
  storeCase(
    'invalid-options',
    'refuses unusable options with invalid_blob_store_options',
    SECTION_CHUNKS,
    async ({ create }) => {
      const bad: [string, BlobStoreOptions][] = [
        ['capacityBytes -1', { capacityBytes: -1 }],
        ['capacityBytes 1.5', { capacityBytes: 1.5 }],
        ['chunkSizeBytes 0', { chunkSizeBytes: 0 }],
        ['an md5 hasher', { hasher: { algorithm: 'md5', digest: blake3Hasher.digest } as unknown as Hasher }],
        ['onEvent "log"', { onEvent: 'log' as unknown as () => void }],
      ];
      for (const [what, options] of bad) {
        const error = await assertRejects(() => create(options), what);
        assertError(error, { code: 'invalid_blob_store_options' }, what);
      }
    },
  ),
];

const sweepCases: readonly ConformanceCase<BlobStoreContext>[] = [
  storeCase(
    'sweep-round-trip',
    `reads back each of ${SWEEP_SAMPLES} generated blobs it stored, for chunk sizes 1 to 64`,
    SECTION_CHUNKS,
    async ({ create }) => {
      for (const [bytes, size] of sweepSamples(0x5eed, 300, 64)) {
        const what = `${bytes.length} bytes in chunks of ${size}`;
        const store = await create({ chunkSizeBytes: size });
        const manifest = await store.putBlob(bytes);
        assertEqual(manifest, manifestOf(bytes, size), `manifest of ${what}`);
        assertEqual(await store.readBlob(manifest.cid), bytes, `${what} read back`);
        assertEqual(await store.missingChunks(manifest), [], `missing chunks of ${what}`);
      }
    },
  ),
  storeCase(
    'sweep-missing',
    `finds missing exactly the chunks not put, for ${SWEEP_SAMPLES} generated blobs`,
    SECTION_PUT,
    async ({ create }) => {
      const pick = generator(0xc0ffee);
      for (const [bytes, size] of sweepSamples(0xb10b, 200, 16)) {
        const store = await create();
        const manifest = manifestOf(bytes, size);
        const put = manifest.chunks.map((c) => c.i).filter(() => pick(2) === 1);
        await putChunksOf(store, bytes, manifest, put);
        const heldCids = new Set(manifest.chunks.filter((c) => put.includes(c.i)).map((c) => c.cid));
        const expected = manifest.chunks.filter((c) => !heldCids.has(c.cid)).map((c) => c.i);
        assertEqual(
          await store.missingChunks(manifest),
          expected,
          `missing chunks of ${bytes.length} bytes in chunks of ${size}, chunks ${JSON.stringify(put)} put`,
        );
      }
    },
  ),
];

const cases: readonly ConformanceCase<BlobStoreContext>[] = [
  ...blobCases,
  ...chunkCases,
  ...manifestCases,
  ...pinCases,
  ...inputCases,
  ...sweepCases,
];

/**
 * The `BlobStore` contract of `@agentwire/hearthnet/blobs` (contract §4.7–§4.10, §7.2): blobs stored
 * as content-addressed chunks with the reference chunker's manifest, chunks verified against their CID
 * (`blake3:` with BLAKE3, `sha256:` with SHA-256) before they are kept, manifests stored only when
 * every chunk is held and only when they add up, pins, garbage collection oldest first that spares
 * pinned blobs, shared chunks and uploads in progress, a capacity, the `file.cid.*` events, and typed
 * refusals of malformed input. Every case makes its own stores through `create`, so a suite run needs
 * no shared state; `fsync`-style durability and on-disk layout are the store's own tests.
 *
 * @example
 * ```ts
 * import { InMemoryBlobStore } from '@agentwire/hearthnet/blobs';
 * import { asHearthNetError } from '@agentwire/hearthnet/capabilities';
 * const report = await runSuite(
 *   blobStoreSuite({ create: (options) => new InMemoryBlobStore(options), wireError: asHearthNetError }),
 * );
 * ```
 */
export function blobStoreSuite(options: BlobStoreSuiteOptions): ConformanceSuite<BlobStoreContext> {
  return {
    name: SUITE_NAME,
    version: BLOB_STORE_SUITE_VERSION,
    description:
      'The HearthNet BlobStore: chunked blobs and their manifests, chunk verification by CID algorithm, ' +
      'missing chunks, manifest checks, pins, garbage collection, capacity, file.cid.* events and input refusals.',
    cases,
    setup: () => {
      const ctx: BlobStoreContext = {
        create: async (caseOptions = {}) => options.create({ chunkSizeBytes: CHUNK, ...caseOptions }),
        wireError: options.wireError,
      };
      return { ctx, ...(options.dispose === undefined ? {} : { dispose: options.dispose }) };
    },
  };
}
