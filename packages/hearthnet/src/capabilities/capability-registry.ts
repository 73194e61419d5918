import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalJson } from '../canonical-json/canonical-json.js';
import { HearthNetLocalError } from '../errors.js';
import { blake3Hex, sha256Hasher } from '../hashing.js';
import {
  assertRegistrableCapabilityName,
  type CapabilityRequirement,
  compareCapabilityVersions,
  parseCapabilityName,
  parseCapabilityRequirement,
  parseCapabilityVersion,
  satisfies,
} from './capability-name.js';
import type { CapabilityDescriptor } from './descriptor.js';
import type { JsonSchema, JsonValue } from './json-schema.js';
import { type CapabilityValidators, validatorsFor } from './validators.js';

/** How a registration is offered. */
export interface RegisterOptions {
  /** How many calls may run at once (manifest `max_concurrent`); a positive integer. */
  readonly maxConcurrent: number;
  /** Descriptor `params` published in the manifest, e.g. `{ model, models, ctx }` (contract §4.1, §6.1). */
  readonly params?: { readonly [key: string]: JsonValue };
}

/** One capability a node offers: its descriptor, handler, limits and a concurrency gate. */
export interface CapabilityRegistration<Handler> {
  readonly descriptor: CapabilityDescriptor;
  readonly handler: Handler;
  readonly maxConcurrent: number;
  readonly params: { readonly [key: string]: JsonValue };
  /** The contract §11 schema hash of the descriptor. */
  readonly schemaHash: string;
  readonly validators: CapabilityValidators;
  /** Calls holding a slot now. */
  readonly inFlight: number;
  /**
   * Takes one of the `maxConcurrent` slots: a function that gives it back (calling it again does
   * nothing), or `undefined` when all are taken (answer `capacity_exceeded`).
   */
  tryAcquire(): (() => void) | undefined;
}

/**
 * A capability as listed in a node manifest (contract §6.1 `capabilities[]`). A type alias rather than
 * an interface, so that `registry.manifestEntries()` is assignable to `NodeManifestInput['capabilities']`.
 */
export type ManifestCapability = {
  readonly name: string;
  readonly version: string;
  readonly stability: CapabilityDescriptor['stability'];
  readonly schema_hash: string;
  readonly params: { readonly [key: string]: JsonValue };
  readonly max_concurrent: number;
};

/** Options of a {@link CapabilityRegistry}. */
export interface CapabilityRegistryOptions {
  /**
   * Accept names whose prefix contract §3.1 does not allocate or reserves (what reference nodes
   * register, e.g. `discovery.peer.add`, `ocr.image`). Default `false`: only allocated prefixes and
   * `experimental.`.
   */
  readonly allowNonContractNames?: boolean;
}

/** Which schema hash a manifest lists: contract §11, or the value reference nodes publish (compat). */
export type SchemaHashForm = 'contract' | 'reference';

/**
 * The capabilities a node offers, by name and version: registration with `max_concurrent`, lookup by
 * requirement (contract §2.1: the highest compatible minor wins), and the manifest listing.
 *
 * @example
 * ```ts
 * const registry = new CapabilityRegistry<MyHandler>();
 * registry.register(catalogueDescriptor('llm.chat'), chatHandler, { maxConcurrent: 4, params: { model: 'qwen2.5-7b-instruct' } });
 * registry.resolve('llm.chat@>=1.0')?.handler; // chatHandler
 * registry.manifestEntries(); // [{ name: 'llm.chat', version: '1.0', schema_hash: 'blake3:…', … }]
 * ```
 */
export class CapabilityRegistry<Handler = unknown> {
  readonly #byName = new Map<string, Map<string, CapabilityRegistration<Handler>>>();
  readonly #allowNonContractNames: boolean;

  constructor(options: CapabilityRegistryOptions = {}) {
    this.#allowNonContractNames = options.allowNonContractNames === true;
  }

  /**
   * Offers a capability.
   *
   * @throws {HearthNetLocalError} `invalid_capability_name` when the name breaks contract §3.1 (see the
   *   options); {@link HearthNetLocalError} `invalid_capability_version`; `invalid_schema` for a schema
   *   outside the supported subset; {@link HearthNetLocalError} `invalid_capability_descriptor` for bad
   *   options; {@link HearthNetLocalError} `duplicate_capability` when `name@version` is already registered.
   */
  register(
    descriptor: CapabilityDescriptor,
    handler: Handler,
    options: RegisterOptions,
  ): CapabilityRegistration<Handler> {
    if (descriptor === null || typeof descriptor !== 'object') {
      throw new HearthNetLocalError(
        'invalid_capability_descriptor',
        'descriptor must be a capability descriptor object',
      );
    }
    if (this.#allowNonContractNames) parseCapabilityName(descriptor.name);
    else assertRegistrableCapabilityName(descriptor.name);
    parseCapabilityVersion(descriptor.version);
    const maxConcurrent = options?.maxConcurrent;
    if (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new HearthNetLocalError(
        'invalid_capability_descriptor',
        `maxConcurrent of ${descriptor.name}@${descriptor.version} must be a positive integer, got ${String(maxConcurrent)}`,
      );
    }
    const params = options.params ?? {};
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      throw new HearthNetLocalError('invalid_capability_descriptor', 'params must be a JSON object');
    }
    const versions = this.#byName.get(descriptor.name) ?? new Map<string, CapabilityRegistration<Handler>>();
    if (versions.has(descriptor.version)) {
      const capability = `${descriptor.name}@${descriptor.version}`;
      throw new HearthNetLocalError(
        'duplicate_capability',
        `capability ${capability} is already registered`,
        {
          details: { capability },
        },
      );
    }
    const registration = createRegistration(descriptor, handler, maxConcurrent, params);
    versions.set(descriptor.version, registration);
    this.#byName.set(descriptor.name, versions);
    return registration;
  }

  /** Withdraws `name@version`; whether it was registered. */
  unregister(name: string, version: string): boolean {
    const versions = this.#byName.get(name);
    const removed = versions?.delete(version) ?? false;
    if (versions?.size === 0) this.#byName.delete(name);
    return removed;
  }

  /** The registration of exactly `name@version`. */
  get(name: string, version: string): CapabilityRegistration<Handler> | undefined {
    return this.#byName.get(name)?.get(version);
  }

  /**
   * The registration that serves a requirement (`name@>=A.B`, or `name@A.B` with the same meaning):
   * the highest minor of the same major, or `undefined` (answer `not_found`, or `schema_mismatch`
   * when only another major is offered — see {@link offeredVersions}).
   *
   * @throws {HearthNetLocalError} `invalid_capability_name` or `invalid_capability_version` for a malformed
   *   requirement.
   */
  resolve(requirement: string | CapabilityRequirement): CapabilityRegistration<Handler> | undefined {
    const wanted = typeof requirement === 'string' ? parseCapabilityRequirement(requirement) : requirement;
    let best: CapabilityRegistration<Handler> | undefined;
    for (const registration of this.#byName.get(wanted.name)?.values() ?? []) {
      if (!satisfies(wanted, registration.descriptor)) continue;
      if (
        best === undefined ||
        compareCapabilityVersions(registration.descriptor.version, best.descriptor.version) > 0
      ) {
        best = registration;
      }
    }
    return best;
  }

  /** The versions registered under a name, lowest first. */
  offeredVersions(name: string): string[] {
    return [...(this.#byName.get(name)?.keys() ?? [])].sort(compareCapabilityVersions);
  }

  /** Every registration, by name, then version. */
  list(): CapabilityRegistration<Handler>[] {
    return [...this.#byName.keys()]
      .sort()
      .flatMap((name) => this.offeredVersions(name).map((version) => this.get(name, version)!));
  }

  /** Calls in flight over all registrations (manifest `load.in_flight_total`). */
  get inFlightTotal(): number {
    return this.list().reduce((total, registration) => total + registration.inFlight, 0);
  }

  /**
   * The manifest `capabilities` array (contract §6.1). `schemaHash: 'reference'` lists the hash
   * reference nodes publish ({@link referenceSchemaHash}) instead of the contract one.
   */
  manifestEntries(options: { readonly schemaHash?: SchemaHashForm } = {}): ManifestCapability[] {
    return this.list().map(({ descriptor, params, maxConcurrent, schemaHash: contractHash }) => ({
      name: descriptor.name,
      version: descriptor.version,
      stability: descriptor.stability,
      schema_hash:
        options.schemaHash === 'reference'
          ? referenceSchemaHash(descriptor.name, descriptor.version)
          : contractHash,
      params: structuredClone(params),
      max_concurrent: maxConcurrent,
    }));
  }
}

function createRegistration<Handler>(
  descriptor: CapabilityDescriptor,
  handler: Handler,
  maxConcurrent: number,
  params: { readonly [key: string]: JsonValue },
): CapabilityRegistration<Handler> {
  const validators = validatorsFor(descriptor);
  const hash = schemaHash(descriptor);
  let inFlight = 0;
  return {
    descriptor,
    handler,
    maxConcurrent,
    params: structuredClone(params),
    schemaHash: hash,
    validators,
    get inFlight() {
      return inFlight;
    },
    tryAcquire() {
      if (inFlight >= maxConcurrent) return undefined;
      inFlight += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight -= 1;
      };
    },
  };
}

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
 * schemaHash(catalogueDescriptor('llm.chat')); // 'blake3:…' (64 hex characters)
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
