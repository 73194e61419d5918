import { blake3Hex, blobCid, chunkBlob, contentId } from '@agentwire/hearthnet';
import { canonicalJson } from '@agentwire/hearthnet/canonical-json';
import {
  nodeIdFromPublicKey,
  parseNodeId,
  shortNodeId,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet/crypto';
import type { ConformanceSuite } from '../suite.js';
import { canonicalJsonSuite } from '../suites/hearthnet/canonical-json.js';
import { hashingSuite } from '../suites/hearthnet/hashing.js';
import { signatureSuite } from '../suites/hearthnet/signatures.js';

/** The `code` of an error, when it has a string one. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Every suite, set up against the implementations agentwire ships (signatures on the default backend). */
export function bundledSuites(): ConformanceSuite<unknown>[] {
  return [
    canonicalJsonSuite({ canonicalize: canonicalJson, errorCode }),
    signatureSuite({
      sign: (payload, seed) => signPayload(payload, seed),
      verify: (payload, publicKey, options) => verifyPayload(payload, publicKey, options),
      verifyWithNodeId: (payload, nodeId, options) => verifyPayload(payload, nodeId, options),
      nodeId: nodeIdFromPublicKey,
      shortNodeId: (publicKey) => shortNodeId(publicKey),
      parseNodeId: (nodeId, { lenient }) => parseNodeId(nodeId, { lenient }),
      lenientEncoding: true,
      errorCode,
    }),
    hashingSuite({
      blake3Hex,
      contentId: (bytes) => contentId(bytes),
      blobCid: (chunkCids) => blobCid(chunkCids),
      chunkBlob: (bytes, chunkSizeBytes) => chunkBlob(bytes, { chunkSizeBytes }),
    }),
  ];
}
