export { type DataStoreSuiteOptions, dataStoreSuite } from './data-store-suite.js';
export type { DataStoreContext, DataStoreFactoryResult, DataStoreUnderTest } from './store-under-test.js';
