import { HearthNetLocalError } from '@agentwire/hearthnet';
import {
  type CapabilityDescriptor,
  catalogueDescriptor,
  referenceSchemaHash,
  satisfies,
  schemaHash,
  schemaHashDocument,
  validatorsFor,
} from '@agentwire/hearthnet/capabilities';
import type { CapabilityCatalogueImplementation } from './capability-schemas.js';

/** The descriptor `@agentwire/hearthnet/capabilities` holds for `name@version`, if any. */
export function lookUp(name: string, version: string): CapabilityDescriptor | undefined {
  const descriptor = catalogueDescriptor(name);
  return descriptor?.version === version ? descriptor : undefined;
}

/**
 * `capabilitySchemaSuite`'s view of a catalogue built with `@agentwire/hearthnet/capabilities`: hashes,
 * descriptors and validators of whatever `catalogue` returns (ours by default; tests pass broken ones),
 * and the §2.1 version rule `satisfies`.
 */
export function agentwireCatalogue(
  catalogue: (name: string, version: string) => CapabilityDescriptor | undefined = lookUp,
): CapabilityCatalogueImplementation {
  return {
    schemaDocument: (name, version) => {
      const descriptor = catalogue(name, version);
      return descriptor && schemaHashDocument(descriptor);
    },
    schemaHash: (name, version) => {
      const descriptor = catalogue(name, version);
      return descriptor && schemaHash(descriptor);
    },
    referenceSchemaHash,
    descriptor: (name, version) => catalogue(name, version),
    validate: (name, version, part, value) => {
      const descriptor = catalogue(name, version);
      const validator = descriptor && validatorsFor(descriptor)[part];
      if (!validator) return { valid: false };
      const result = validator.check(value);
      return result.ok ? { valid: true, value: result.value } : { valid: false };
    },
    satisfies,
    errorCode: (error) => (error instanceof HearthNetLocalError ? error.code : undefined),
  };
}
