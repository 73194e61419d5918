// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of the blob-transfer pair (hearthnet.blob-transfer × agentwire hearthnet), after the
// cases of suite 1.1.0 (malformed manifests refused by client and node, more refused streams and
// file.put frames, and the node's file.read answers, capability `serve`).
import { CONDITION_MUTATORS } from './shared.mjs';

const PAIRS = ['blob-transfer'];
const MANIFEST = 'packages/hearthnet/src/blobs/blob-manifest.ts';
const TRANSFER = 'packages/hearthnet/src/blobs/blob-transfer.ts';
const FILES = 'packages/hearthnet/src/blobs/file-capabilities.ts';

/** What a manifest refusal says besides its code. */
const MANIFEST_WORDS =
  'what a manifest refusal says besides its code (its message, the field or path it names): a reading client refuses with manifest_mismatch and a file.put node with bad_request whatever the words, and the contract fixes no wording (the code strings on these refusals are killed by the put-manifest-* and serve-*-cid cases)';
/** What a refusal of a stream or a chunk says besides its reason or code. */
const TRANSFER_WORDS =
  "wording inside a refusal's message, which the contract leaves to the implementation: the suite checks the client's refusal reason (and chunk index) and the node's §9 code";
/** The SDK's SHA-256 ids and injected hashers, beyond the contract's BLAKE3. */
const BLAKE3_ONLY =
  'only sha256: ids (an SDK extension for the SHA-256 ids of the reference implementation; contract §1.4 names BLAKE3 alone) or an injected hasher (an SDK option) take another path here: with blake3: ids and no hasher, the only ids the contract has, the built-in BLAKE3 hashes either way (contentId and blobCid default to it); a sha256: chunk id in a blake3 manifest is refused before any hashing (put-manifest-sha256-chunk-cid)';
/** `parts` is set exactly when a manifest is accepted. */
const PARTS_WITH_MANIFEST =
  'readBlob sets parts right after it accepts a manifest, and a manifest it does not accept throws before another frame is read, so `manifest === undefined` and `parts === undefined` are the same test wherever either is read';
/** The bundled store refuses what the file.put handler let through, in the same put. */
const STORE_BACKSTOP =
  "the store the node writes into refuses the same put a little later (it stores bytes only under the id they hash to, and refuses the manifest, missing_chunks or a wrong chunk size, both bad_request, while a chunk of that index is not held with the manifest's size): the put still ends bad_request after the same ready and holds no blob; only which verified chunks stay stored for a resume differs, which the contract leaves to the node";
/** A node that reads on after the needed chunks arrived. */
const READ_ON =
  'whether a node answers done as soon as every needed chunk is in, or first reads the client stream to its end: §4.10 ends the exchange with done once the needed chunks arrived and has the client send only those, so a client stream that ends after them (every case) gets the same answer either way';
/** base64Decode throws nothing but invalid_base64. */
const ONLY_INVALID_BASE64 =
  'base64Decode throws only HearthNetLocalError invalid_base64 (for a non-string too), so the rethrow of any other error is unreachable: every variant that never rethrows behaves as the original (the variants that rethrow invalid_base64 are killed by the *-base64 cases)';

const SHA256_ARM =
  "the `'sha256'` arm is taken only for a sha256: id (an SDK extension for the SHA-256 ids of the reference implementation; contract §1.4 names BLAKE3 alone): with blake3: ids, the only ids the contract has, the blake3 arm is taken either way, and the algorithm comparison of a manifest's chunk and blob ids (\"\" or 'sha256' for a sha256: id, 'blake3' for a blake3: one) still tells a sha256: chunk id from a blake3 blob id (put-manifest-sha256-chunk-cid)";

export default [
  // blob-manifest.ts
  // The field name each check puts in its refusal (the argument after the value).
  ...[
    ["const cid = manifestCid(value['cid'], 'cid');", 41],
    ["const sizeBytes = count(value['size_bytes'], 'size_bytes', 0);", 48],
    ["const chunkSizeBytes = count(value['chunk_size_bytes'], 'chunk_size_bytes', 1);", 59],
    ["const chunkCid = manifestCid(raw['cid'], `${field}.cid`);", 46],
    ["const chunkSize = count(raw['size_bytes'], `${field}.size_bytes`, 0);", 48],
  ].map(([code, column]) => ({
    pairs: PAIRS,
    file: MANIFEST,
    code,
    column,
    mutators: ['StringLiteral'],
    reason: MANIFEST_WORDS,
  })),
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: '`invalid blob manifest at $: must be an object`',
    column: 60,
    mutators: ['StringLiteral'],
    reason: MANIFEST_WORDS,
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: '`invalid blob manifest at $: must be an object`',
    mutators: ['ObjectLiteral'],
    reason: MANIFEST_WORDS,
  },
  ...[
    "path: '$',",
    '`invalid blob manifest at chunks: must be a non-empty array`,',
    "{ path: 'chunks' },",
    'const field = `chunks[${position}]`;',
    '`invalid blob manifest at ${field}: must be an object`,',
    '{ path: field },',
    '`invalid blob manifest at ${field}.i: must be ${position}`,',
    '{ path: `${field}.i` },',
    '`invalid blob manifest at ${field}.cid: must use the algorithm of the blob cid`,',
    '{ path: `${field}.cid` },',
    'const expected = isLast ? `1 … ${chunkSizeBytes}` : `${chunkSizeBytes}`;',
    '`invalid blob manifest at ${field}.size_bytes: must be ${expected}, got ${chunkSize}`,',
    '{ path: `${field}.size_bytes` },',
    '`invalid blob manifest at size_bytes: must be the sum of the chunk sizes, ${total}`,',
    "{ path: 'size_bytes' },",
    '`invalid blob manifest at cid: the chunk ids give the blob cid ${expectedCid}`,',
    "{ path: 'cid' },",
    '`invalid blob manifest at ${field}: must be blake3:<64 hex> or sha256:<64 hex>`,',
    '`invalid blob manifest at ${field}: must be an integer ≥ ${minimum}`,',
    '`invalid ${argument}: ${(error as Error).message}`,',
    '{ cause: error, path: argument },',
    '`invalid ${argument}: a blob store takes prefixed ids (blake3:<hex> or sha256:<hex>)`,',
    '{ path: argument },',
  ].map((code) => ({
    pairs: PAIRS,
    file: MANIFEST,
    code,
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: MANIFEST_WORDS,
  })),
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: 'if (!Array.isArray(rawChunks) || rawChunks.length === 0) {',
    column: 36,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'an empty chunks array is refused anyway: with no chunks the computed total is −chunk_size_bytes, never the size_bytes (an integer ≥ 0), so the manifest is still refused invalid_blob_manifest (bad_request, manifest_mismatch)',
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: 'const total = (chunks.length - 1) * chunkSizeBytes + (chunks.at(-1)?.size_bytes ?? 0);',
    mutators: ['OptionalChaining'],
    reason:
      'chunks is never empty here (an empty chunks array is refused above), so chunks.at(-1) is always a chunk',
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: "if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {",
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      "`typeof value !== 'number'` → false: Number.isSafeInteger is false for every non-number, so the next test refuses it just the same (the other → false mutants at this column, the whole condition and its first two tests, are killed by put-manifest-zero-chunk-size and put-manifest-fractional-chunk-size)",
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: "return cid.startsWith('sha256:') ? 'sha256' : 'blake3';",
    column: 49,
    mutators: ['StringLiteral'],
    reason: BLAKE3_ONLY,
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    span: { from: 'export function hasherForAlgorithm(', until: '/**' },
    reason: BLAKE3_ONLY,
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    span: { from: 'export function verifyChunkBytes(', until: '/** The 64 hex digits' },
    reason:
      'verifyChunkBytes is an SDK helper that nothing the suite drives calls: the file.read client hashes chunks itself, and the file.* handlers and the InMemoryBlobStore they run on check chunk bytes with their own code',
  },

  // blob-transfer.ts, readBlob
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: '{ stream: true, ...(options.signal === undefined ? {} : { signal: options.signal }) },',
    reason:
      'the suite reads without an AbortSignal (an SDK option; the contract has no cancelling of a read), and client.call takes `{ signal: undefined }` as it takes no signal',
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    span: { from: 'const hasherFor = (id: string) =>', until: 'let manifest: BlobManifest | undefined;' },
    mutators: ['ArrowFunction', 'MethodExpression'],
    reason: BLAKE3_ONLY,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: "hasherForAlgorithm(id.startsWith('sha256:') ? 'sha256' : 'blake3', options.hasher);",
    column: 62,
    mutators: ['StringLiteral'],
    reason: BLAKE3_ONLY,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: 'let done = false;',
    exact: true,
    reason:
      'done only decides whether readBlob closes the stream in its finally: the SSE client itself refuses a stream that ends without a terminal frame (read-no-done, read-cut-short), and closing a response that ended, or not closing one that failed, changes nothing the client returns or refuses',
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: "} else if (frame.event === 'done') {",
    reason:
      'done only decides whether readBlob closes the stream in its finally: the SSE client itself refuses a stream that ends without a terminal frame (read-no-done, read-cut-short), and closing a response that ended, or not closing one that failed, changes nothing the client returns or refuses',
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: 'done = true;',
    exact: true,
    reason:
      'done only decides whether readBlob closes the stream in its finally: the SSE client itself refuses a stream that ends without a terminal frame (read-no-done, read-cut-short), and closing a response that ended, or not closing one that failed, changes nothing the client returns or refuses',
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: 'if (!done) await stream.close();',
    reason:
      'done only decides whether readBlob closes the stream in its finally: the SSE client itself refuses a stream that ends without a terminal frame (read-no-done, read-cut-short), and closing a response that ended, or not closing one that failed, changes nothing the client returns or refuses',
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: '} finally {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      'the finally only closes the stream of a read that ended without done: the SSE client itself refuses a stream that ends without a terminal frame, and closing or not closing a finished or failed response changes nothing the client returns or refuses',
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: 'if (manifest !== undefined || parts !== undefined || single !== undefined) {',
    mutators: ['LogicalOperator', 'ConditionalExpression'],
    reason: `${PARTS_WITH_MANIFEST} (the mutants that drop the whole test, the manifest-or-parts test or the single test are killed by read-second-manifest-other-order and read-manifest-after-a-chunk)`,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: 'if (manifest === undefined || parts === undefined) {',
    mutators: ['LogicalOperator', 'ConditionalExpression'],
    reason: `${PARTS_WITH_MANIFEST} (the whole test → false, after the loop, is killed by read-done-only)`,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: 'if (single !== undefined && manifest === undefined) return { bytes: single, manifest: undefined };',
    column: 31,
    mutators: ['ConditionalExpression'],
    reason:
      'single is only ever set while no manifest has come, and a manifest after it is refused (read-manifest-after-a-chunk), so `manifest === undefined` always holds when single is set',
  },
  ...[
    "'a second manifest frame, or a manifest after chunks',",
    '`the manifest is malformed: ${(error as Error).message}`,',
    '`the node sent the manifest of ${manifest.cid}, not of ${cid}`,',
    '`a chunk frame for ${chunk.cid} without a manifest`,',
    '`chunk ${chunk.i} hashes to ${actual}, the manifest says ${cid}`,',
    '`chunk ${chunk.i} is not in the manifest or came twice`,',
    '`chunk ${chunk.i} hashes to ${actual}, the manifest says ${expected.cid}`,',
    "`the stream ended with chunks missing: ${missing.slice(0, 20).join(', ')}`,",
  ].map((code) => ({
    pairs: PAIRS,
    file: TRANSFER,
    code,
    mutators: ['StringLiteral', 'MethodExpression'],
    reason: TRANSFER_WORDS,
  })),
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: '`the node streamed no manifest and no chunk for ${cid}`',
    column: 52,
    mutators: ['StringLiteral'],
    reason: TRANSFER_WORDS,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: '`chunk ${chunk.i}: data_b64 is not standard base64`',
    column: 52,
    mutators: ['StringLiteral'],
    reason: TRANSFER_WORDS,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    span: { from: 'function decodeChunkData(', until: '/** Options of {@link recordBlobEvents}' },
    code: "if (!(error instanceof HearthNetLocalError && error.code === 'invalid_base64')) throw error;",
    mutators: ['LogicalOperator'],
    reason: ONLY_INVALID_BASE64,
  },
  // The variants that never rethrow: the whole `!(…)` → false, the `(…)` or its code test → true.
  ...[
    [9, 'false'],
    [11, 'true'],
    [51, 'true'],
  ].map(([column, replacement]) => ({
    pairs: PAIRS,
    file: TRANSFER,
    span: { from: 'function decodeChunkData(', until: '/** Options of {@link recordBlobEvents}' },
    code: "if (!(error instanceof HearthNetLocalError && error.code === 'invalid_base64')) throw error;",
    column,
    mutators: ['ConditionalExpression'],
    replacement,
    reason: ONLY_INVALID_BASE64,
  })),

  // file-capabilities.ts
  {
    pairs: PAIRS,
    file: FILES,
    code: 'const pinPuts = options.pinPuts === true;',
    reason:
      'pinPuts is a node option beyond the contract (whether blobs received with file.put are pinned against garbage collection); a pin changes neither what file.put answers nor the blob the node holds, which is what the suite checks',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (pinPuts) await store.pin(manifest.cid);',
    reason:
      'pinPuts is a node option beyond the contract (whether blobs received with file.put are pinned against garbage collection); a pin changes neither what file.put answers nor the blob the node holds, which is what the suite checks',
  },
  {
    pairs: PAIRS,
    file: FILES,
    span: { from: 'if (manifest !== undefined) {', until: 'return streamBlob(manifest, started);' },
    code: 'if (!context.stream) {',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'what a node answers a file.read of a blob CID without a stream is left open: §4.7 gives a blob CID only stream frames and the non-stream response only for a chunk CID (the mutants that refuse the streamed read are killed by serve-blob)',
  },
  {
    pairs: PAIRS,
    file: FILES,
    span: { from: 'if (manifest !== undefined) {', until: 'return streamBlob(manifest, started);' },
    code: 'if (!context.stream) {',
    mutators: ['BlockStatement'],
    reason:
      'what a node answers a file.read of a blob CID without a stream is left open: §4.7 gives a blob CID only stream frames and the non-stream response only for a chunk CID',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: '`${cid} is a blob manifest: call file.read with a stream to receive its chunks`,',
    reason: TRANSFER_WORDS,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (bytes === undefined) throw new NotFoundError(`this node does not hold ${cid}`);',
    mutators: ['StringLiteral'],
    reason: TRANSFER_WORDS,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (bytes === undefined) throw new NotFoundError(`chunk ${chunk.i} (${chunk.cid}) is no longer held`);',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'a held manifest whose chunk is gone: the suite gives the node manifests together with all their chunks (HeldBlobs), and the InMemoryBlobStore it runs on stores a manifest only once every chunk is held and drops chunks only with their blobs, so the chunk is always there (the mutants that refuse a held chunk are killed by serve-blob)',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (bytes === undefined) throw new NotFoundError(`chunk ${chunk.i} (${chunk.cid}) is no longer held`);',
    mutators: ['StringLiteral'],
    reason: TRANSFER_WORDS,
  },
  {
    pairs: PAIRS,
    file: FILES,
    span: { from: 'export function registerFileCapabilities(', until: '/**' },
    reason:
      'registerFileCapabilities registers the handlers with a bus registry and their max_concurrent limits (the node’s choice): the suite calls the file.read and file.put handlers as the bus does, after registration',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (context.clientFrames === undefined || !context.stream) {',
    mutators: [...CONDITION_MUTATORS, 'StringLiteral'],
    reason:
      "unreachable through the suite's put, which plays file.put as a client stream (the call the contract defines, §4.10) the way the bus hands every duplex call to its handler; a file.put arriving without its client stream is not something put can express",
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: "throw new BadRequestError('file.put is a client stream: send the chunks on the same call (duplex)');",
    reason:
      "unreachable through the suite's put, which plays file.put as a client stream (the call the contract defines, §4.10) the way the bus hands every duplex call to its handler",
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (pending.size > 0) {',
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    replacement: 'true',
    reason: READ_ON,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (pending.size > 0) {',
    mutators: ['EqualityOperator'],
    replacement: '>=',
    reason: READ_ON,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (pending.size === 0) break;',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: READ_ON,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (expected === undefined || !pending.has(i)) {',
    column: 13,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'pending holds only the indexes of the ready list, all of them chunks of the manifest, so an index outside the manifest is never pending and is refused by the second test (the whole condition → false is killed by put-not-asked-for)',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (cid !== expected.cid) throw new BadRequestError(`chunk ${i} is ${expected.cid}, not ${cid}`);',
    mutators: ['ConditionalExpression'],
    reason: STORE_BACKSTOP,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'if (bytes.length !== expected.size_bytes) {',
    mutators: ['ConditionalExpression', 'BlockStatement'],
    reason: STORE_BACKSTOP,
  },
  {
    pairs: PAIRS,
    file: FILES,
    span: { from: 'if (pending.size === 0) break;', until: 'await store.putManifest(manifest);' },
    code: 'if (pending.size > 0) {',
    mutators: ['ConditionalExpression', 'BlockStatement'],
    reason: STORE_BACKSTOP,
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: "if (!(error instanceof HearthNetLocalError && error.code === 'invalid_base64')) throw error;",
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason: ONLY_INVALID_BASE64,
  },
  ...[
    'throw new BadRequestError(`file.put expects chunk frames, got "${frame.event}"`);',
    "throw new BadRequestError(`chunk ${i} was not asked for (needed: ${[...pending].join(', ')})`);",
    'if (cid !== expected.cid) throw new BadRequestError(`chunk ${i} is ${expected.cid}, not ${cid}`);',
    'throw new BadRequestError(`chunk ${i}: data_b64 is not standard base64`, { cause: error });',
    '`chunk ${i} has ${bytes.length} bytes, the manifest says ${expected.size_bytes}`,',
    "`the client stream ended with ${pending.size} chunk(s) missing: ${[...pending].slice(0, 20).join(', ')}`,",
  ].map((code) => ({
    pairs: PAIRS,
    file: FILES,
    code,
    mutators: ['StringLiteral', 'ArrayDeclaration', 'MethodExpression', 'ObjectLiteral'],
    reason: TRANSFER_WORDS,
  })),
  {
    pairs: PAIRS,
    file: FILES,
    code: "if (value === null || typeof value !== 'object' || Array.isArray(value))",
    column: 25,
    mutators: ['ConditionalExpression'],
    reason:
      'a manifest that is a string, number or boolean is refused anyway: spread into an object it has no cid, so parseBlobManifest refuses it invalid_blob_manifest as it refuses the primitive itself (the null mutants are killed by put-manifest-null)',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: "if (!Array.isArray(chunks) || typeof chunkSize !== 'number' || typeof size !== 'number') {",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'a chunk_size_bytes or size_bytes that is not a number is refused anyway: parseBlobManifest checks both (invalid_blob_manifest) before it reads a chunk, so sizes filled in from them are never used (the mutants that let a missing chunks list through are killed by put-manifest-without-chunks)',
  },
  {
    pairs: PAIRS,
    file: FILES,
    code: 'return parseBlobManifest({ ...fields, chunk_size_bytes: chunkSize }, hasher);',
    mutators: ['ObjectLiteral'],
    reason:
      'parseBlobManifest of {} refuses it invalid_blob_manifest (no cid), as it refuses the manifest without a chunks list: only the field the refusal names differs',
  },
  {
    pairs: PAIRS,
    file: MANIFEST,
    code: "return cid.startsWith('sha256:') ? 'sha256' : 'blake3';",
    span: { from: 'function algorithmOf(', until: 'function count(' },
    column: 38,
    mutators: ['StringLiteral'],
    reason: SHA256_ARM,
  },
  {
    pairs: PAIRS,
    file: TRANSFER,
    code: "hasherForAlgorithm(id.startsWith('sha256:') ? 'sha256' : 'blake3', options.hasher);",
    column: 51,
    mutators: ['StringLiteral'],
    reason: `${SHA256_ARM}; here hasherForAlgorithm("") picks the built-in BLAKE3, so only a sha256: chunk would be hashed with the wrong algorithm`,
  },
];
