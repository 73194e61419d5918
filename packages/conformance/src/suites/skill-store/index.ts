export { type SkillStoreSuiteOptions, skillStoreSuite } from './skill-store-suite.js';
export type {
  SkillStoreContext,
  SkillStoreFactory,
  SkillStoreFactoryResult,
  SkillStoreUnderTest,
} from './store-under-test.js';
