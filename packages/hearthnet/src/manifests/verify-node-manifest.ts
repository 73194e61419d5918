import { formatJsonPath } from '../canonical-json/json-path.js';
import {
  createHearthNetError,
  type HearthNetError,
  type HearthNetErrorCode,
} from '../capabilities/hearthnet-errors.js';
import { parseNodeId } from '../crypto/node-id.js';
import { verifyPayload } from '../crypto/payload-signature.js';
import { invalidTimestamp } from './errors.js';
import {
  NODE_MANIFEST_LIFETIME_MS,
  NODE_MANIFEST_VERSION,
  type SignedNodeManifest,
  signedNodeManifestSchema,
} from './node-manifest-schema.js';
import { parseTimestamp } from './timestamps.js';

/**
 * Why a node manifest was refused, and the contract §9 code each maps to:
 * - `malformed` (`bad_request`): not an object, or a required field missing or mistyped;
 * - `unsupported_version` (`bad_request`): `version` is not 1;
 * - `unsupported_contract_version` (`schema_mismatch`): `contract_version` is not `1.x`;
 * - `invalid_lifetime` (`bad_request`): `expires_at − issued_at` is not exactly 30 s;
 * - `invalid_signature` (`invalid_signature`): the signature does not verify under `node_id`;
 * - `expired` (`expired`): the time is at or past `expires_at`;
 * - `pinned_key_mismatch` (`invalid_signature`): another key is pinned for this `node_id`.
 */
export type NodeManifestRejectionReason =
  | 'malformed'
  | 'unsupported_version'
  | 'unsupported_contract_version'
  | 'invalid_lifetime'
  | 'invalid_signature'
  | 'expired'
  | 'pinned_key_mismatch';

/** A refused manifest: the reason, its contract error code, and a message (with the field's path where there is one). */
export interface NodeManifestRejection {
  readonly valid: false;
  readonly reason: NodeManifestRejectionReason;
  readonly code: HearthNetErrorCode;
  readonly message: string;
  /** The JSON path of the offending field, for `malformed`. */
  readonly path?: string;
}

/** The verdict on a node manifest: the typed manifest and its signing key, or why it was refused. */
export type NodeManifestVerdict =
  | { readonly valid: true; readonly manifest: SignedNodeManifest; readonly publicKey: Uint8Array }
  | NodeManifestRejection;

/** Options of {@link verifyNodeManifest}. */
export interface VerifyNodeManifestOptions {
  /** The time to judge expiry at, in milliseconds since the epoch. */
  readonly now: number;
  /**
   * Extra milliseconds a manifest stays acceptable after `expires_at`, for peers whose clocks run
   * behind. Default 0.
   */
  readonly clockSkewMs?: number;
}

const codes: { readonly [R in NodeManifestRejectionReason]: HearthNetErrorCode } = {
  malformed: 'bad_request',
  unsupported_version: 'bad_request',
  unsupported_contract_version: 'schema_mismatch',
  invalid_lifetime: 'bad_request',
  invalid_signature: 'invalid_signature',
  expired: 'expired',
  pinned_key_mismatch: 'invalid_signature',
};

/**
 * Checks a node manifest received from a peer against every rule of contract §6.1 except key
 * pinning (see {@link NodeManifestVerifier} for that), in this order: shape (`malformed`),
 * `version` 1, `contract_version` major 1, `expires_at − issued_at` exactly 30 s, the signature under
 * the key of `node_id`, then expiry. Never throws.
 *
 * Expiry: a manifest is valid for `[issued_at, expires_at)`; at `expires_at` itself it is
 * `expired` (as the reference's `now >= expires_at`; the contract says "past `expires_at`"). A
 * manifest issued in the future is not refused: its lifetime is still 30 s.
 *
 * @throws {HearthNetLocalError} `invalid_timestamp` when `now` or `clockSkewMs` is not a finite number
 *   (`clockSkewMs` ≥ 0).
 * @example
 * const verdict = verifyNodeManifest(JSON.parse(body), { now: Date.now() });
 * if (!verdict.valid) throw nodeManifestError(verdict);
 */
export function verifyNodeManifest(value: unknown, options: VerifyNodeManifestOptions): NodeManifestVerdict {
  assertTime(options.now, 'now');
  assertTime(options.clockSkewMs ?? 0, 'clockSkewMs');
  const parsed = signedNodeManifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = formatJsonPath((issue?.path ?? []).filter((segment) => typeof segment !== 'symbol'));
    return rejectManifest('malformed', `${path}: ${issue?.message ?? 'invalid'}`, path);
  }
  const manifest = parsed.data;
  if (manifest.version !== NODE_MANIFEST_VERSION) {
    return rejectManifest(
      'unsupported_version',
      `manifest version ${manifest.version} is not ${NODE_MANIFEST_VERSION}`,
    );
  }
  if (!/^1\.\d+$/.test(manifest.contract_version)) {
    return rejectManifest(
      'unsupported_contract_version',
      `contract_version ${JSON.stringify(manifest.contract_version)} is not compatible with 1.0`,
    );
  }
  const issuedAt = parseTimestamp(manifest.issued_at);
  const expiresAt = parseTimestamp(manifest.expires_at);
  if (expiresAt - issuedAt !== NODE_MANIFEST_LIFETIME_MS) {
    return rejectManifest(
      'invalid_lifetime',
      `expires_at − issued_at is ${(expiresAt - issuedAt) / 1000} s, not ${NODE_MANIFEST_LIFETIME_MS / 1000} s`,
    );
  }
  const signature = verifyPayload(value, manifest.node_id);
  if (!signature.valid) {
    return rejectManifest(
      'invalid_signature',
      `the signature does not verify under node_id (${signature.reason})`,
    );
  }
  if (options.now >= expiresAt + (options.clockSkewMs ?? 0)) {
    return rejectManifest('expired', `the manifest expired at ${manifest.expires_at}`);
  }
  return { valid: true, manifest, publicKey: parseNodeId(manifest.node_id) };
}

/**
 * The contract error (the `HearthNetError` family) for a refused manifest: `BadRequestError`,
 * `SchemaMismatchError`, `InvalidSignatureError` or `ExpiredError`, with the verdict's message.
 *
 * @example
 * if (!verdict.valid) throw nodeManifestError(verdict); // e.g. ExpiredError, status 410
 */
export function nodeManifestError(rejection: NodeManifestRejection): HearthNetError {
  return createHearthNetError(
    rejection.code,
    `node manifest refused (${rejection.reason}): ${rejection.message}`,
  );
}

/** A refusal verdict. */
export function rejectManifest(
  reason: NodeManifestRejectionReason,
  message: string,
  path?: string,
): NodeManifestRejection {
  return path === undefined
    ? { valid: false, reason, code: codes[reason], message }
    : { valid: false, reason, code: codes[reason], message, path };
}

function assertTime(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || (name === 'clockSkewMs' && value < 0)) {
    throw invalidTimestamp(value, `${name} must be a finite number of milliseconds`);
  }
}
