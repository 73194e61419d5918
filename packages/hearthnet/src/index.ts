/**
 * `@agentwire/hearthnet` — the HearthNet Capability Contract v1.0 for TypeScript.
 *
 * The root entry is runtime-neutral and re-exports the crypto core:
 * - canonical JSON, byte-identical to the reference `canonical_json` (also `@agentwire/hearthnet/canonical-json`);
 * - encodings, key pairs and node ids, Ed25519 with one libsodium-equal verification rule,
 *   payload signing, BLAKE3 content ids and chunking (also `@agentwire/hearthnet/crypto`).
 *
 * Further runtime-neutral subpaths: `@agentwire/hearthnet/capabilities` (the 18-capability catalogue,
 * schema hashes, the error family), `@agentwire/hearthnet/wire` (signed calls, SSE, the client and the
 * web-standard bus handler), `@agentwire/hearthnet/events` (the signed event log core) and
 * `@agentwire/hearthnet/manifests` (node manifests). Node-only helpers: `@agentwire/hearthnet/key-files` and
 * `@agentwire/hearthnet/node-http` (serving a bus handler on `node:http`).
 *
 * @example
 * ```ts
 * import { generateKeyPair, signPayload, verifyPayload } from '@agentwire/hearthnet';
 *
 * const me = generateKeyPair();
 * const signed = signPayload({ hello: 'mesh' }, me);
 * verifyPayload(signed, me.nodeId); // { valid: true }
 * ```
 *
 * @packageDocumentation
 */
export * from './canonical-json/index.js';
export * from './crypto/index.js';
