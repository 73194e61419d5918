import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalJson } from '../canonical-json/index.js';
import { blake3Hex, sha256Hasher } from '../hashing/index.js';
import { parseCapabilityName } from './capability-name.js';
import { parseCapabilityVersion } from './capability-version.js';
import type { CapabilityDescriptor } from './descriptor.js';
import type { JsonSchema } from './json-schema.js';

/** The descriptor fields a schema hash covers. */
export type SchemaHashInput = Pick<
  CapabilityDescriptor,
  'name' | 'version' | 'requestSchema' | 'responseSchema' | 'streamSchema'
>;

/** The object contract §11 hashes, with its wire field names. */
export interface SchemaHashDocument {
  readonly name: string;
  readonly version: string;
  readonly request_schema: JsonSchema;
  readonly response_schema: JsonSchema | null;
  readonly stream_schema: JsonSchema | null;
}

/**
 * The object whose canonical JSON contract §11 hashes: `{name, version, request_schema,
 * response_schema, stream_schema}`, the last two `null` when absent.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` or `invalid_capability_version` for a malformed
 *   name or version.
 */
export function schemaHashDocument(descriptor: SchemaHashInput): SchemaHashDocument {
  parseCapabilityName(descriptor.name);
  parseCapabilityVersion(descriptor.version);
  return {
    name: descriptor.name,
    version: descriptor.version,
    request_schema: descriptor.requestSchema,
    response_schema: descriptor.responseSchema ?? null,
    stream_schema: descriptor.streamSchema ?? null,
  };
}

/**
 * The schema hash of contract §11: `blake3:` + lowercase hex of BLAKE3 over the canonical JSON
 * (§1.2) of {@link schemaHashDocument}. Two nodes with the same hash speak identically.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name`, `invalid_capability_version`, or
 *   `HearthNetLocalError` (a canonical JSON code) when a schema holds a value JSON cannot carry.
 * @example
 * ```ts
 * schemaHash(LLM_CHAT); // 'blake3:…' (64 hex characters)
 * ```
 */
export function schemaHash(descriptor: SchemaHashInput): string {
  return `blake3:${blake3Hex(canonicalJson(schemaHashDocument(descriptor)))}`;
}

/**
 * The schema hash a reference node actually publishes in its manifest (hearthnet-reference.md §5):
 * no reference capability has schemas, and its hash is SHA-256, though labelled `blake3:`, over the
 * sorted compact JSON of `{name, request_schema: {}, response_schema: null, stream_schema: null,
 * version}`. Use it to recognise, or to imitate, a reference node; it says nothing about schemas.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` or `invalid_capability_version` for malformed
 *   input.
 * @example
 * ```ts
 * referenceSchemaHash('llm.chat', '1.0'); // 'blake3:' + SHA-256 hex
 * ```
 */
export function referenceSchemaHash(name: string, version: string): string {
  const document = schemaHashDocument({
    name,
    version,
    requestSchema: {},
    responseSchema: null,
    streamSchema: null,
  });
  // For strings, empty objects and nulls the reference's serialiser writes exactly canonical JSON.
  return `blake3:${bytesToHex(sha256Hasher.digest(canonicalJson(document)))}`;
}
