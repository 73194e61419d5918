import type { ConformanceSuite } from '../../suite.js';
import { changeTokenCases } from './change-token-cases.js';
import { contractCases } from './contract-cases.js';
import { featureCases } from './feature-cases.js';
import { missingSkillCases } from './missing-skill-cases.js';
import { readWriteCases } from './read-write-cases.js';
import { prepareSkillStore, type SkillStoreContext, type SkillStoreFactory } from './store-under-test.js';
import { SKILL_STORE_SUITE_VERSION } from './suite-version.js';

/** Options of {@link skillStoreSuite}. */
export interface SkillStoreSuiteOptions {
  /**
   * Builds a fresh, empty store: once in the suite's setup (to read its class's capabilities) and once
   * per case, each released with its `dispose` when the case ends.
   */
  readonly factory: SkillStoreFactory;
}

const SUITE_NAME = 'skill-store.contract';

/**
 * The SkillStore v1.0 contract, checked more strictly than the reference suite: every returned
 * `VersionInfo`, `SkillSource` and `SkillMeta` validated by the contract's schemas, `content_hash` the
 * SHA-256 of the bytes `load()` returns and `version` its first 12 digits, exact byte round trips,
 * `SkillNotFoundError` from every method that names a missing skill (matched by `name`, `code` and
 * `connector_type`, so stores from other packages qualify), timestamps in whole unix seconds, and the
 * optional `version()` change token moving on every change. Capabilities come from the class's
 * `staticCapabilities().features` (`supports_writes`, `supports_audit_trail`, `supports_versioning`)
 * and from the presence of `version()` (`change-token`).
 *
 * @example
 * ```ts
 * const report = await runSuite(
 *   skillStoreSuite({
 *     factory: async () => {
 *       const dir = await mkdtemp(join(tmpdir(), 'skills-'));
 *       return { store: new FilesystemSkillStore({ dir }), dispose: () => rm(dir, { recursive: true }) };
 *     },
 *   }),
 * );
 * ```
 */
export function skillStoreSuite(options: SkillStoreSuiteOptions): ConformanceSuite<SkillStoreContext> {
  return {
    name: SUITE_NAME,
    version: SKILL_STORE_SUITE_VERSION,
    description:
      'The SkillStore v1.0 contract: static capabilities, methods and manifest, store/load round trips ' +
      'and content identity, metadata and query, SkillNotFoundError on every miss, unix-second ' +
      'timestamps, update_status and previous_status, status filters, versions, delete, and the ' +
      'version() change token.',
    cases: [
      ...contractCases(SUITE_NAME),
      ...readWriteCases(SUITE_NAME),
      ...missingSkillCases(SUITE_NAME),
      ...featureCases(SUITE_NAME),
      ...changeTokenCases(SUITE_NAME),
    ],
    setup: () => prepareSkillStore(options.factory),
  };
}
