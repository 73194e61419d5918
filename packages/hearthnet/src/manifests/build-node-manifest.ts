import { formatJsonPath } from '../canonical-json/json-path.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { signPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import {
  CONTRACT_VERSION,
  NODE_MANIFEST_LIFETIME_MS,
  NODE_MANIFEST_VERSION,
  type NodeManifestInput,
  nodeManifestInputSchema,
  type SignedNodeManifest,
} from './node-manifest-schema.js';
import { formatTimestamp } from './timestamps.js';

/** Options of {@link buildNodeManifest}. */
export interface BuildNodeManifestOptions {
  /** The issue time in milliseconds since the epoch (default `Date.now()`); whole seconds are kept. */
  readonly now?: number;
}

/**
 * Builds and signs this node's manifest (contract §6.1): `version` 1, `contract_version` "1.0",
 * `node_id` of `key`, `issued_at` = `now` in whole seconds, `expires_at` 30 s later, signed over the
 * canonical JSON of everything but `signature`. Numbers are normalised to their canonical value
 * before signing (`load.cpu: 0.1234567` is sent as `0.123457`).
 *
 * @throws {HearthNetLocalError} `invalid_node_manifest` when `input` breaks the §6.1 schema (the path names
 *   the field).
 * @throws {HearthNetLocalError} `invalid_timestamp` when `now` is not a usable time.
 * @example
 * const manifest = buildNodeManifest(
 *   {
 *     display_name: 'garage-pc',
 *     community_id: root.nodeId,
 *     profile: 'anchor',
 *     endpoints: [{ transport: 'https', host: '192.168.188.25', port: 7080 }],
 *     capabilities: registry.manifestEntries(),
 *   },
 *   deviceKey,
 * );
 */
export function buildNodeManifest(
  input: NodeManifestInput,
  key: KeyPair,
  options: BuildNodeManifestOptions = {},
): SignedNodeManifest {
  const parsed = nodeManifestInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = formatJsonPath((issue?.path ?? []).filter((segment) => typeof segment !== 'symbol'));
    throw new HearthNetLocalError(
      'invalid_node_manifest',
      `invalid node manifest at ${path}: ${issue?.message ?? 'invalid'}`,
      {
        cause: parsed.error,
        path,
      },
    );
  }
  const issuedAt = formatTimestamp(options.now ?? Date.now());
  const expiresAt = formatTimestamp(Date.parse(issuedAt) + NODE_MANIFEST_LIFETIME_MS);
  return signPayload(
    {
      ...input,
      version: NODE_MANIFEST_VERSION,
      contract_version: CONTRACT_VERSION,
      node_id: key.nodeId,
      issued_at: issuedAt,
      expires_at: expiresAt,
    },
    key,
  ) as SignedNodeManifest;
}
