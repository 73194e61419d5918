import { z } from 'zod';
import { countSchema, jsonObjectSchema, nodeIdSchema, timestampSchema } from './field-schemas.js';

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
/** A node profile. */
export type NodeProfile = (typeof NODE_PROFILES)[number];

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

/** One endpoint of a manifest. */
export type NodeEndpoint = z.infer<typeof endpointSchema>;
/** `hardware` of a manifest. */
export type NodeHardware = z.infer<typeof hardwareSchema>;
/** `load` of a manifest. */
export type NodeLoad = z.infer<typeof loadSchema>;
/** A capability entry of a manifest. */
export type NodeManifestCapability = z.infer<typeof manifestCapabilitySchema>;
/** What {@link buildNodeManifest} takes. */
export type NodeManifestInput = z.input<typeof nodeManifestInputSchema>;
/** A signed node manifest (contract §6.1). */
export type SignedNodeManifest = z.infer<typeof signedNodeManifestSchema>;
