import { z } from 'zod';

/**
 * What a store's `manifest()` resolves to: the substrate's dynamic description (`manifest`) and a token
 * (`capabilities_version`) the store bumps when that description's content changes, so callers can cache
 * it per token.
 */
export interface ManifestInfo<Manifest> {
  capabilities_version: string;
  manifest: Manifest;
}

/** Builds the schema of a {@link ManifestInfo} around one manifest schema. */
export function manifestInfoSchema<Manifest extends z.ZodType>(manifest: Manifest) {
  return z.object({ capabilities_version: z.string(), manifest });
}

/** `contract_version` of a static capability declaration: `major.minor.patch` digits, such as `'1.0.0'`. */
export const contractVersionSchema = z.string().regex(/^\d+\.\d+\.\d+$/, 'must be major.minor.patch');
