import { keyPairFromSeed } from '@agentwire/hearthnet';
import {
  buildNodeManifest,
  InMemoryPinStore,
  type NodeManifestInput,
  NodeManifestVerifier,
} from '@agentwire/hearthnet/manifests';
import type { ManifestImplementation } from './manifest-suite.js';

/**
 * `manifestSuite`'s view of `@agentwire/hearthnet/manifests`: a {@link NodeManifestVerifier} over an
 * {@link InMemoryPinStore} seeded with the case's pins (its `verify` and its throwing `accept`), and
 * `buildNodeManifest`.
 */
export const agentwireManifests: ManifestImplementation = {
  verify: (manifest, { now, pins }) =>
    new NodeManifestVerifier({ pinStore: new InMemoryPinStore(pins), clock: () => now }).verify(manifest),
  accept: (manifest, { now, pins }) =>
    new NodeManifestVerifier({ pinStore: new InMemoryPinStore(pins), clock: () => now }).accept(manifest),
  build: (input, seed, { now }) =>
    buildNodeManifest(input as unknown as NodeManifestInput, keyPairFromSeed(seed), { now }),
};
