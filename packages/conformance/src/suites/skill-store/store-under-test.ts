import type { SkillStore } from '@agentwire/agent-connector';
import type { SuiteSetup } from '../../suite.js';

/** A store built for one case, with how to release it. */
export interface SkillStoreUnderTest {
  readonly store: SkillStore;
  /** Releases what the factory set up for this store (a temp folder, a database file). */
  readonly dispose?: () => void | Promise<void>;
}

/** What the suite's factory may return: a bare store, or one with its `dispose`. */
export type SkillStoreFactoryResult = SkillStore | SkillStoreUnderTest;

/** Builds a fresh, empty store; the suite calls it once per case (and once in setup). */
export type SkillStoreFactory = () => SkillStoreFactoryResult | Promise<SkillStoreFactoryResult>;

/** The context every case of {@link skillStoreSuite} receives. */
export interface SkillStoreContext {
  /** Builds a fresh, empty store, runs `body` on it, and disposes of it whatever `body` does. */
  withStore<T>(body: (store: SkillStore) => Promise<T>): Promise<T>;
  /**
   * What the store's class returned from `staticCapabilities()`, unchecked; `undefined` when the class
   * has no such static method.
   */
  readonly declaredCapabilities: unknown;
}

/** Capability a case requires when it needs `version()`, the optional change token. */
export const CHANGE_TOKEN_CAPABILITY = 'change-token';

function isWrapped(result: SkillStoreFactoryResult): result is SkillStoreUnderTest {
  return typeof (result as { readonly load?: unknown }).load !== 'function' && 'store' in result;
}

async function build(factory: SkillStoreFactory): Promise<SkillStoreUnderTest> {
  const result = await factory();
  return isWrapped(result) ? result : { store: result };
}

/** What the class of `store` declares through a static `staticCapabilities()`, if it has one. */
function declaredCapabilitiesOf(store: SkillStore): unknown {
  const declaring = (store as { readonly constructor?: { readonly staticCapabilities?: unknown } })
    .constructor;
  const staticCapabilities = declaring?.staticCapabilities;
  return typeof staticCapabilities === 'function' ? staticCapabilities.call(declaring) : undefined;
}

/**
 * Builds one store to learn what the implementation declares, then releases it. Capabilities: every
 * feature its class's `staticCapabilities()` sets to `true` (`supports_writes`, `supports_versioning`,
 * `supports_audit_trail`, …) and {@link CHANGE_TOKEN_CAPABILITY} when it has `version()`.
 */
export async function prepareSkillStore(factory: SkillStoreFactory): Promise<SuiteSetup<SkillStoreContext>> {
  const probe = await build(factory);
  let declaredCapabilities: unknown;
  const capabilities = new Set<string>();
  try {
    declaredCapabilities = declaredCapabilitiesOf(probe.store);
    const features = (declaredCapabilities as { readonly features?: unknown } | undefined)?.features;
    if (typeof features === 'object' && features !== null) {
      for (const [feature, enabled] of Object.entries(features))
        if (enabled === true) capabilities.add(feature);
    }
    if (typeof probe.store.version === 'function') capabilities.add(CHANGE_TOKEN_CAPABILITY);
  } finally {
    await probe.dispose?.();
  }
  const withStore = async <T>(body: (store: SkillStore) => Promise<T>): Promise<T> => {
    const underTest = await build(factory);
    try {
      return await body(underTest.store);
    } finally {
      await underTest.dispose?.();
    }
  };
  return { ctx: { withStore, declaredCapabilities }, capabilities };
}
