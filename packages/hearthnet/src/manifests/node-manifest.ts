import { describeValue, isPlainObject } from '@agentwire/internal';
import { z } from 'zod';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import {
  createHearthNetError,
  type HearthNetError,
  type HearthNetErrorCode,
} from '../capabilities/hearthnet-errors.js';
import { type KeyPair, parseNodeId } from '../crypto/key-pair.js';
import { signPayload, verifyPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import { parseContentId } from '../hashing.js';

/** `version` of a node manifest (contract §6.1). */
export const NODE_MANIFEST_VERSION = 1;
/** The contract version this SDK speaks and writes into manifests (contract §2.2). */
export const CONTRACT_VERSION = '1.0';
/** `expires_at − issued_at` of every node manifest, exactly (contract §6.1). */
export const NODE_MANIFEST_LIFETIME_MS = 30_000;
/** How often a node re-issues its manifest, `MANIFEST_REPUBLISH_INTERVAL_SECONDS` (contract §6.1). */
export const MANIFEST_REPUBLISH_INTERVAL_MS = 20_000;

/** Node profiles (contract §6.1, reference `types.py`). */
export const NODE_PROFILES = ['anchor', 'hearth', 'spark', 'bridge'] as const;

/** A full node id, `ed25519:` + unpadded base64url of a 32-byte public key (strict decoding). */
export const nodeIdSchema = z.string().refine(isFullNodeId, {
  message: 'expected a full node id, ed25519:<base64url of 32 bytes>',
});

/** An RFC 3339 UTC timestamp with `Z` and at most millisecond precision (contract §1.1). */
export const timestampSchema = z.string().refine((text) => tryParseTimestamp(text) !== undefined, {
  message: 'expected an RFC 3339 UTC timestamp such as 2026-05-26T08:14:22Z',
});

/** A signature as the contract writes it: `ed25519:` + unpadded base64url of 64 bytes. */
export const signatureSchema = z.string().regex(/^ed25519:[A-Za-z0-9_-]{85}[AQgw]$/, {
  message: 'expected ed25519:<base64url of 64 bytes>',
});

/** A prefixed content id, `blake3:<64 hex>` (or the reference's `sha256:<64 hex>` fallback). */
export const contentIdSchema = z.string().refine(isPrefixedCid, {
  message: 'expected a content id such as blake3:<64 lowercase hex>',
});

/** A plain JSON object; its values are checked when it is canonicalised (signed or verified). */
export const jsonObjectSchema = z.custom<{ readonly [key: string]: unknown }>(isPlainObject, {
  message: 'expected a JSON object',
});

/** A non-negative safe integer. */
export const countSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Whether `text` is a full node id (what {@link nodeIdSchema} accepts). */
export function isFullNodeId(text: string): boolean {
  try {
    parseNodeId(text);
    return true;
  } catch {
    return false;
  }
}

function isPrefixedCid(text: string): boolean {
  try {
    return parseContentId(text).form === 'prefixed';
  } catch {
    return false;
  }
}

/** One way to reach a node, e.g. `{ transport: 'https', host: '192.168.188.25', port: 7080 }`. */
export const endpointSchema = z.looseObject({
  transport: z.string().min(1),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65_535),
});

/** A capability as a manifest lists it (the shape `CapabilityRegistry.manifestEntries()` returns). */
export const manifestCapabilitySchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+$/, { message: 'expected a capability version "X.Y"' }),
  stability: z.string().min(1),
  schema_hash: z.string().regex(/^blake3:[0-9a-f]{64}$/, { message: 'expected blake3:<64 lowercase hex>' }),
  params: jsonObjectSchema,
  max_concurrent: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

const sizeSchema = z.number().min(0);

/** `hardware` of a manifest; every field is optional (the reference omits `vram_gb`). */
export const hardwareSchema = z.looseObject({
  gpu: z.string().nullable().optional(),
  vram_gb: sizeSchema.optional(),
  ram_gb: sizeSchema.optional(),
  cpu_cores: countSchema.optional(),
  disk_free_gb: sizeSchema.optional(),
});

/** `load` of a manifest; every field is optional. */
export const loadSchema = z.looseObject({
  cpu: sizeSchema.optional(),
  vram_used_gb: sizeSchema.optional(),
  in_flight_total: countSchema.optional(),
});

/**
 * The fields a node fills in itself (what {@link buildNodeManifest} takes): contract §6.1 without
 * `version`, `contract_version`, `node_id`, the timestamps and the signature.
 */
export const nodeManifestInputSchema = z.looseObject({
  display_name: z.string(),
  community_id: nodeIdSchema,
  profile: z.enum(NODE_PROFILES),
  endpoints: z.array(endpointSchema),
  capabilities: z.array(manifestCapabilitySchema),
  hardware: hardwareSchema.optional(),
  uptime_seconds: countSchema.optional(),
  load: loadSchema.optional(),
});

/**
 * A whole node manifest (contract §6.1), signed. Unknown fields are kept (they are signed, and a
 * later minor contract version may add some). `version` and `contract_version` are checked as
 * values by `verifyNodeManifest`, which answers them with their own reasons.
 */
export const signedNodeManifestSchema = nodeManifestInputSchema.extend({
  version: z.number(),
  contract_version: z.string(),
  node_id: nodeIdSchema,
  issued_at: timestampSchema,
  expires_at: timestampSchema,
  signature: z.string(),
});

/** What {@link buildNodeManifest} takes. */
export type NodeManifestInput = z.input<typeof nodeManifestInputSchema>;
/** A signed node manifest (contract §6.1). */
export type SignedNodeManifest = z.infer<typeof signedNodeManifestSchema>;

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

/** Options of a {@link NodeManifestVerifier}. */
export interface NodeManifestVerifierOptions {
  /** Where first-seen keys are pinned. */
  readonly pinStore: PinStore;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** Extra milliseconds a manifest stays acceptable after `expires_at` (default 0). */
  readonly clockSkewMs?: number;
}

/**
 * Verifies the manifests of peers with every rule of contract §6.1, key pinning included: the first
 * valid manifest of a `node_id` pins its key in the {@link PinStore}; a later one signed by another
 * key is refused with `invalid_signature` (reason `pinned_key_mismatch`). Refused manifests pin
 * nothing.
 *
 * @example
 * const verifier = new NodeManifestVerifier({ pinStore: new InMemoryPinStore() });
 * const manifest = await verifier.accept(JSON.parse(body)); // throws ExpiredError, InvalidSignatureError, …
 */
export class NodeManifestVerifier {
  readonly #pinStore: PinStore;
  readonly #clock: () => number;
  readonly #clockSkewMs: number;

  constructor(options: NodeManifestVerifierOptions) {
    this.#pinStore = options.pinStore;
    this.#clock = options.clock ?? Date.now;
    this.#clockSkewMs = options.clockSkewMs ?? 0;
  }

  /** The verdict on `value`; pins its key when it is valid and nothing is pinned yet. */
  async verify(value: unknown): Promise<NodeManifestVerdict> {
    const verdict = verifyNodeManifest(value, { now: this.#clock(), clockSkewMs: this.#clockSkewMs });
    if (!verdict.valid) return verdict;
    const pinned = await this.#pinStore.pin(verdict.manifest.node_id, verdict.publicKey);
    if (!equalBytes(pinned, verdict.publicKey)) {
      return rejectManifest(
        'pinned_key_mismatch',
        `another public key is pinned for node ${verdict.manifest.node_id}`,
      );
    }
    return verdict;
  }

  /**
   * The manifest, verified and pinned.
   *
   * @throws `BadRequestError`, `SchemaMismatchError`, `InvalidSignatureError` or
   *   `ExpiredError` (see `nodeManifestError`).
   */
  async accept(value: unknown): Promise<SignedNodeManifest> {
    const verdict = await this.verify(value);
    if (!verdict.valid) throw nodeManifestError(verdict);
    return verdict.manifest;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * Where a verifier remembers the first public key it saw for each `node_id` (contract §6.1: "pin the
 * first-seen public key per node_id"). Implementations must make {@link PinStore.pin} atomic per
 * node id: of two concurrent first pins, one wins and both callers get the winner.
 */
export interface PinStore {
  /** Pins `publicKey` for `nodeId` unless a key is pinned already; resolves to the key pinned now. */
  pin(nodeId: string, publicKey: Uint8Array): Promise<Uint8Array>;
  /** The key pinned for `nodeId`, if any. */
  get(nodeId: string): Promise<Uint8Array | undefined>;
}

/**
 * A {@link PinStore} in memory, for one process. Keys are copied in and out.
 *
 * @example
 * const pins = new InMemoryPinStore();
 * await pins.pin(nodeId, publicKey); // publicKey (first seen)
 * await pins.pin(nodeId, otherKey); // still publicKey
 */
export class InMemoryPinStore implements PinStore {
  readonly #pins = new Map<string, Uint8Array>();

  /** Starts with `initial` pins, e.g. keys learnt out of band. */
  constructor(initial: Iterable<readonly [string, Uint8Array]> = []) {
    for (const [nodeId, publicKey] of initial) {
      if (!this.#pins.has(nodeId)) this.#pins.set(nodeId, new Uint8Array(publicKey));
    }
  }

  async pin(nodeId: string, publicKey: Uint8Array): Promise<Uint8Array> {
    let pinned = this.#pins.get(nodeId);
    if (pinned === undefined) {
      pinned = new Uint8Array(publicKey);
      this.#pins.set(nodeId, pinned);
    }
    return new Uint8Array(pinned);
  }

  async get(nodeId: string): Promise<Uint8Array | undefined> {
    const pinned = this.#pins.get(nodeId);
    return pinned === undefined ? undefined : new Uint8Array(pinned);
  }
}

/** RFC 3339 UTC with `Z` and at most millisecond precision (contract §1.1). */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/** The largest time `Date` represents, in milliseconds either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/**
 * Formats a time (milliseconds since the epoch) as a contract timestamp with whole seconds,
 * `2026-05-26T08:14:22Z`: sub-second parts are dropped (rounded down), as the reference does.
 *
 * @throws {HearthNetLocalError} `invalid_timestamp` for a time that is not a finite number inside years
 *   0000–9999.
 * @example
 * formatTimestamp(Date.UTC(2026, 4, 26, 8, 14, 22, 999)); // '2026-05-26T08:14:22Z'
 */
export function formatTimestamp(timeMs: number): string {
  if (typeof timeMs !== 'number' || !Number.isFinite(timeMs) || Math.abs(timeMs) > MAX_DATE_MS) {
    throw invalidTimestamp(timeMs, 'a time must be a finite number of milliseconds');
  }
  const second = Math.floor(timeMs / 1000);
  if (second === lastFormatted.second) return lastFormatted.text;
  const text = new Date(second * 1000).toISOString();
  if (!/^\d{4}-/.test(text)) throw invalidTimestamp(timeMs, 'the year must be between 0000 and 9999');
  lastFormatted = { second, text: `${text.slice(0, 19)}Z` };
  return lastFormatted.text;
}

/** The last second formatted: events made in a burst share it. */
let lastFormatted: { readonly second: number; readonly text: string } = { second: Number.NaN, text: '' };

/**
 * Reads a contract timestamp (RFC 3339, UTC `Z`, at most three fraction digits) as milliseconds since
 * the epoch. Offsets other than `Z`, lower-case `t`/`z`, more fraction digits and impossible dates
 * (`2026-02-30`, hour 24, leap seconds) are refused.
 *
 * @throws {HearthNetLocalError} `invalid_timestamp`
 * @example
 * parseTimestamp('2026-05-26T08:14:22.281Z'); // 1779783262281
 */
export function parseTimestamp(text: string): number {
  const timeMs = tryParseTimestamp(text);
  if (timeMs === undefined) {
    throw invalidTimestamp(text, 'expected an RFC 3339 UTC timestamp such as 2026-05-26T08:14:22Z');
  }
  return timeMs;
}

/** {@link parseTimestamp} without the throw: `undefined` for anything that is not a contract timestamp. */
export function tryParseTimestamp(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = TIMESTAMP.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date.getTime() : undefined;
}

/**
 * The `invalid_timestamp` error: a value that is not a contract timestamp (RFC 3339 UTC with `Z`,
 * contract §1.1), or a time that cannot be one. The message ends with the value received.
 */
export function invalidTimestamp(value: unknown, message: string): HearthNetLocalError {
  return new HearthNetLocalError('invalid_timestamp', `${message}, got ${describeValue(value)}`, {
    details: { value },
  });
}
