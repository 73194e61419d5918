import { z } from 'zod';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import { parseNodeId } from '../crypto/key-pair.js';
import { verifyPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import { blake3Hasher, contentId, type Hasher, isPrefixedContentId } from '../hashing.js';
import { nodeManifestInputSchema } from '../manifests/node-manifest.js';
import { PythonFloat } from './reference-json.js';

const jsonObject = z.record(z.string(), z.unknown());

/** A capability as reference manifests list it; only the served form carries `schema_hash`. */
export const referenceManifestCapabilitySchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  stability: z.string(),
  schema_hash: z.string().optional(),
  params: jsonObject,
  max_concurrent: z.number(),
});

/**
 * A node manifest signed by the reference library (`identity/manifest.build_node_manifest`, note §8):
 * no `schema_hash`, `uptime_seconds` or `load`; `issued_at` in whole seconds, 30 s lifetime.
 */
export const referenceNodeManifestSchema = z.looseObject({
  version: z.number(),
  node_id: z.string(),
  display_name: z.string(),
  community_id: z.string(),
  profile: z.string(),
  endpoints: z.array(z.looseObject({ transport: z.string(), host: z.string(), port: z.number() })),
  capabilities: z.array(referenceManifestCapabilitySchema),
  issued_at: z.string(),
  expires_at: z.string(),
  contract_version: z.string(),
  hardware: jsonObject.optional(),
  signature: z.string(),
});

/**
 * A community manifest signed by the reference library (`build_community_manifest`, note §9): member
 * node ids without levels, a free-form policy, 24 h lifetime, signed by `root_node_id`.
 */
export const referenceCommunityManifestSchema = z.looseObject({
  version: z.number(),
  community_id: z.string(),
  name: z.string(),
  root_node_id: z.string(),
  members: z.array(z.string()),
  policy: jsonObject,
  issued_at: z.string(),
  expires_at: z.string(),
  contract_version: z.string(),
  signature: z.string(),
});

/**
 * What a running reference node serves on `GET /manifest` (note §8, §19): unsigned, no endpoints or
 * timestamps, node ids such as `local-1a2b3c4d`.
 */
export const referenceServedManifestSchema = z.looseObject({
  version: z.number(),
  contract_version: z.string(),
  node_id: z.string(),
  display_name: z.string(),
  community_id: z.string(),
  profile: z.string(),
  capabilities: z.array(referenceManifestCapabilitySchema),
});

/** A library-signed reference node manifest. */
export type ReferenceNodeManifest = z.infer<typeof referenceNodeManifestSchema>;
/** A library-signed reference community manifest. */
export type ReferenceCommunityManifest = z.infer<typeof referenceCommunityManifestSchema>;
/** The unsigned manifest a reference node serves. */
export type ReferenceServedManifest = z.infer<typeof referenceServedManifestSchema>;

/** Fields the reference requires before it looks at anything else (`missing_field`). */
const REQUIRED_NODE_FIELDS = [
  'version',
  'node_id',
  'display_name',
  'community_id',
  'profile',
  'endpoints',
  'capabilities',
  'issued_at',
  'expires_at',
  'contract_version',
  'signature',
] as const;
const REQUIRED_COMMUNITY_FIELDS = [
  'version',
  'community_id',
  'name',
  'root_node_id',
  'members',
  'policy',
  'issued_at',
  'expires_at',
  'contract_version',
  'signature',
] as const;

/** Why a reference manifest was refused, with the reference's own codes (`identity/manifest.py`). */
export type ReferenceManifestFailureReason =
  | 'missing_field'
  | 'schema_error'
  | 'invalid_signature'
  | 'expired';

/** The verdict on a library-signed reference manifest. */
export type ReferenceManifestVerification<M> =
  | { readonly valid: true; readonly manifest: M }
  | {
      readonly valid: false;
      readonly reason: ReferenceManifestFailureReason;
      readonly message: string;
      /** The JSON path of the offending field, where there is one. */
      readonly path?: string;
    };

/** Options of the reference manifest checks. */
export interface VerifyReferenceManifestOptions {
  /** The time to judge expiry at, in milliseconds since the epoch. */
  readonly now: number;
}

/**
 * Checks a node manifest signed by the reference library, rule for rule as its
 * `verify_node_manifest`, in its order: every field present (`missing_field`), `node_id` a full node id
 * (`schema_error`), the signature over the canonical JSON (`invalid_signature`, lenient decoding),
 * `expires_at` read as the reference reads it (`schema_error`; `2026-05-26 08:14:52`, `2026-05-26T08:14Z`,
 * basic format and long fractions pass, `-hh:mm` offsets and week dates do not), then expired iff
 * `now ≥ expires_at`. Like the reference it does not check the 30 s lifetime, `contract_version` or key
 * pins; unlike it, the field types are checked last (`schema_error`). Never throws.
 *
 * @example
 * const verdict = verifyReferenceNodeManifest(manifest, { now: Date.now() });
 * if (verdict.valid) referenceNodeManifestToContract(verdict.manifest, { schemaHash });
 */
export function verifyReferenceNodeManifest(
  value: unknown,
  options: VerifyReferenceManifestOptions,
): ReferenceManifestVerification<ReferenceNodeManifest> {
  return verifySigned(value, options, REQUIRED_NODE_FIELDS, 'node_id', referenceNodeManifestSchema);
}

/**
 * Checks a community manifest signed by the reference library, as its `verify_community_manifest`:
 * the same rules as {@link verifyReferenceNodeManifest} with `root_node_id` as the key. There is no
 * contract counterpart to convert it to: the contract's community manifest (§6.2) is derived from
 * the event log, with member levels and revocations the reference does not have. Never throws.
 */
export function verifyReferenceCommunityManifest(
  value: unknown,
  options: VerifyReferenceManifestOptions,
): ReferenceManifestVerification<ReferenceCommunityManifest> {
  return verifySigned(
    value,
    options,
    REQUIRED_COMMUNITY_FIELDS,
    'root_node_id',
    referenceCommunityManifestSchema,
  );
}

/**
 * Reads the unsigned manifest a reference node serves on `GET /manifest`.
 *
 * @throws {HearthNetLocalError} `malformed_reference_manifest` with the path of the first bad field.
 */
export function parseReferenceServedManifest(value: unknown): ReferenceServedManifest {
  const parsed = referenceServedManifestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { path, message } = firstIssue(parsed.error);
  throw new HearthNetLocalError(
    'malformed_reference_manifest',
    `not a served reference manifest: ${message}`,
    { path },
  );
}

/** The node-filled fields of a contract node manifest (`nodeManifestInputSchema`'s output). */
export type ContractNodeManifestFields = z.infer<typeof nodeManifestInputSchema>;

/** Options of {@link referenceNodeManifestToContract}. */
export interface ReferenceManifestConversionOptions {
  /**
   * The `schema_hash` of a capability the reference manifest lists without one (library-signed
   * manifests never carry it). Default: none, and such a manifest is refused.
   */
  readonly schemaHash?: (name: string, version: string) => string | undefined;
}

/**
 * The contract §6.1 fields a node fills in (`display_name`, `community_id`, `profile`, `endpoints`,
 * `capabilities`, `hardware`), taken from a reference manifest, signed or served. The result is not
 * a signed contract manifest — only the node's key can sign one (`buildNodeManifest`). A served
 * manifest's `schema_hash` is kept as given (the reference computes it with SHA-256 under a
 * `blake3:` label, so it does not equal the contract's hash of the same capability).
 *
 * @throws {HearthNetLocalError} `manifest_conversion` when the result breaks the contract's schema (a
 *   community id such as `ed25519:hf-space-community`, a capability without `schema_hash`, …); `path` says
 *   where.
 */
export function referenceNodeManifestToContract(
  manifest: ReferenceNodeManifest | ReferenceServedManifest,
  options: ReferenceManifestConversionOptions = {},
): ContractNodeManifestFields {
  const candidate: Record<string, unknown> = {
    display_name: manifest.display_name,
    community_id: manifest.community_id,
    profile: manifest.profile,
    endpoints: 'endpoints' in manifest ? manifest.endpoints : [],
    capabilities: manifest.capabilities.map((capability) => ({
      name: capability.name,
      version: capability.version,
      stability: capability.stability,
      schema_hash: capability.schema_hash ?? options.schemaHash?.(capability.name, capability.version),
      params: capability.params,
      max_concurrent: capability.max_concurrent,
    })),
  };
  if ('hardware' in manifest && manifest.hardware !== undefined) candidate.hardware = manifest.hardware;
  const parsed = nodeManifestInputSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const { path, message } = firstIssue(parsed.error);
  throw new HearthNetLocalError('manifest_conversion', `the manifest has no contract form: ${message}`, {
    path,
  });
}

function verifySigned<M>(
  received: unknown,
  options: VerifyReferenceManifestOptions,
  required: readonly string[],
  keyField: string,
  schema: z.ZodType<M>,
): ReferenceManifestVerification<M> {
  // Manifests are signed over the canonical form, where `16.0` and `16` are the same number: a manifest
  // read with parseReferenceJson (integral floats as PythonFloat) verifies like one read with JSON.parse.
  const value = withPlainFloats(received);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('schema_error', 'a manifest must be a JSON object', '$');
  }
  const record = value as Record<string, unknown>;
  const missing = required.find((field) => !Object.hasOwn(record, field));
  if (missing !== undefined) {
    return refuse('missing_field', `the manifest has no ${missing}`, formatJsonPath([missing]));
  }
  // The reference's order: key, signature, expiry; the field types (which it never checks) come last.
  let publicKey: Uint8Array;
  try {
    publicKey = parseNodeId(record[keyField] as string, { lenient: true });
  } catch (error) {
    return refuse(
      'schema_error',
      error instanceof Error ? error.message : String(error),
      formatJsonPath([keyField]),
    );
  }
  const signature = verifyPayload(value, publicKey, { lenientEncoding: true });
  if (!signature.valid) {
    return refuse(
      'invalid_signature',
      `the signature does not verify under ${keyField} (${signature.reason})`,
    );
  }
  const expiresAt = readReferenceManifestTime(record.expires_at);
  if (expiresAt === undefined) {
    return refuse('schema_error', 'expires_at is not a timestamp', '$.expires_at');
  }
  if (options.now >= expiresAt)
    return refuse('expired', `the manifest expired at ${String(record.expires_at)}`);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.error);
    return refuse('schema_error', message, path);
  }
  return { valid: true, manifest: parsed.data };
}

/** A deep copy with every `PythonFloat` as its number (nothing else changes). */
function withPlainFloats(value: unknown): unknown {
  if (value instanceof PythonFloat) return value.value;
  if (Array.isArray(value)) return value.map(withPlainFloats);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withPlainFloats(item)]));
}

function refuse<M>(
  reason: ReferenceManifestFailureReason,
  message: string,
  path?: string,
): ReferenceManifestVerification<M> {
  return path === undefined ? { valid: false, reason, message } : { valid: false, reason, message, path };
}

function firstIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  const segments = (issue?.path ?? []).filter((segment) => typeof segment !== 'symbol') as (
    | string
    | number
  )[];
  const path = formatJsonPath(segments);
  return { path, message: `${path}: ${issue?.message ?? 'invalid'}` };
}

/**
 * The fields of a blob manifest that the reference's `manifest_cid` hashes. A `BlobManifest` of
 * `@agentwire/hearthnet/blobs` fits; other fields (`cid`, a chunk's `i` or `index`) are ignored.
 */
export interface ReferenceManifestCidInput {
  readonly size_bytes: number;
  readonly chunk_size_bytes: number;
  readonly chunks: readonly { readonly cid: string; readonly size_bytes: number }[];
}

/**
 * The reference's `manifest_cid(manifest)` (`blobs/chunker.py`): the content id of the UTF-8 JSON
 * `{"chunk_size_bytes":…,"chunks":[{"cid":…,"size_bytes":…},…],"size_bytes":…}` — keys sorted,
 * compact, chunks in manifest order. The reference defines it but files blobs under the blob CID
 * (`blobCid` of `@agentwire/hearthnet/hashing`), not under this one.
 *
 * @param hasher - defaults to BLAKE3; `sha256Hasher` gives what a reference node without the Python
 *   `blake3` module computes.
 * @throws {HearthNetLocalError} `malformed_reference_blob_manifest` when a size is not a non-negative integer
 *   or a chunk id is not `<algorithm>:<64 lowercase hex>`.
 * @example
 * referenceManifestCid({ size_bytes: 5, chunk_size_bytes: 262144, chunks: [{ cid, size_bytes: 5 }] });
 * // 'blake3:…'
 */
export function referenceManifestCid(
  manifest: ReferenceManifestCidInput,
  hasher: Hasher = blake3Hasher,
): string {
  if (typeof manifest !== 'object' || manifest === null) {
    throw new HearthNetLocalError('malformed_reference_blob_manifest', 'a blob manifest must be an object', {
      path: '$',
    });
  }
  const chunks = manifest.chunks;
  if (!Array.isArray(chunks)) {
    throw new HearthNetLocalError('malformed_reference_blob_manifest', '$.chunks must be an array', {
      path: '$.chunks',
    });
  }
  const chunkTexts = chunks.map((chunk: unknown, index) => {
    const record = (typeof chunk === 'object' && chunk !== null ? chunk : {}) as Record<string, unknown>;
    if (!isPrefixedContentId(record.cid)) {
      const path = formatJsonPath(['chunks', index, 'cid']);
      throw new HearthNetLocalError(
        'malformed_reference_blob_manifest',
        `${path} must be <algorithm>:<64 lowercase hex>`,
        { path },
      );
    }
    return `{"cid":"${record.cid}","size_bytes":${size(record.size_bytes, ['chunks', index, 'size_bytes'])}}`;
  });
  // Every value is an integer or an ASCII content id, so this is Python's sorted compact JSON byte for byte.
  const json =
    `{"chunk_size_bytes":${size(manifest.chunk_size_bytes, ['chunk_size_bytes'])},` +
    `"chunks":[${chunkTexts.join(',')}],"size_bytes":${size(manifest.size_bytes, ['size_bytes'])}}`;
  return contentId(json, hasher);
}

/** A size as Python writes an `int`. */
function size(value: unknown, path: (string | number)[]): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    const at = formatJsonPath(path);
    throw new HearthNetLocalError(
      'malformed_reference_blob_manifest',
      `${at} must be a non-negative integer`,
      { path: at },
    );
  }
  return String(value);
}

/** ISO 8601 dates as Python's `datetime.fromisoformat` reads them: extended `YYYY-MM-DD` or basic `YYYYMMDD`. */
const EXTENDED_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})/;
/**
 * `HH[:MM[:SS]]` or `HH[MM[SS]]` (one separator style throughout), then an optional fraction of at least one
 * digit after `.` or `,` — after the hour or the minute too, as CPython's parser allows.
 */
const EXTENDED_TIME = /^(\d{2})(?::(\d{2})(?::(\d{2}))?)?(?:[.,](\d+))?$/;
const BASIC_TIME = /^(\d{2})(?:(\d{2})(\d{2})?)?(?:[.,](\d+))?$/;

const MICROS_PER_MS = 1000;

/**
 * Reads a manifest `expires_at` as the reference's `_parse_rfc3339` does (`identity/manifest.py`): trailing
 * `Z`s stripped, the text cut at the first `+`, the rest read by `datetime.fromisoformat` as UTC. So
 * `2026-05-26 08:14:52`, `2026-05-26T08:14Z`, `2026-05-26`, `20260526T081452` and fractions of any length
 * (`,` or `.`, cut to microseconds) are read like `2026-05-26T08:14:52Z`. Stricter than the reference:
 * ISO week dates and `-hh:mm` offsets (which the reference would read as if they were UTC) are refused.
 *
 * @returns milliseconds since the epoch, rounded up when the time has a sub-millisecond part (so that
 *   `now >= result` for a whole-millisecond `now` is the reference's `now >= expires_at`), or `undefined`.
 */
export function readReferenceManifestTime(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const local = text.replace(/Z+$/, '').split('+')[0] ?? '';
  const date = EXTENDED_DATE.exec(local) ?? (local.charAt(4) === '-' ? null : BASIC_DATE.exec(local));
  if (date === null) return undefined;
  const [, year, month, day] = date.map(Number) as [number, number, number, number];
  // Any one character (a code point) separates the date from the time, as in CPython.
  const rest = Array.from(local.slice(date[0].length));
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  if (rest.length > 0) {
    const clock = rest.slice(1).join('');
    const time = (clock.charAt(2) === ':' ? EXTENDED_TIME : BASIC_TIME).exec(clock);
    if (rest.length < 2 || time === null) return undefined;
    hour = Number(time[1]);
    minute = Number(time[2] ?? 0);
    second = Number(time[3] ?? 0);
    micros = Number((time[4] ?? '').slice(0, 6).padEnd(6, '0'));
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  if (utc.getUTCMonth() !== month - 1) return undefined; // 2026-02-30 rolled over
  utc.setUTCHours(hour, minute, second, Math.floor(micros / MICROS_PER_MS));
  return utc.getTime() + (micros % MICROS_PER_MS === 0 ? 0 : 1);
}
