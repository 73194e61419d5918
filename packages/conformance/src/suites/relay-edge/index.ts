export { type ContentDisposition, parseContentDisposition } from './content-disposition.js';
export type {
  EdgeConnectorUnderTest,
  EdgeCredentialBinding,
  EdgeHttpRequest,
  EdgeHttpResponse,
  EdgeVerifierClock,
  EdgeWebhookRequest,
  EdgeWeComKeys,
  EdgeWeComReplyOptions,
  EdgeWorld,
  RelayEdgeImplementation,
  SanitisedDiscordForward,
} from './edge-implementation.js';
export type { EdgeStoreContext, EdgeStoreSuiteOptions, OpenedEdgeStore } from './edge-store-support.js';
export { edgeSuite } from './edge-suite.js';
export {
  type EnrollmentTokenStoreContext,
  type EnrollmentTokenStoreSuiteOptions,
  enrollmentTokenStoreSuite,
} from './enrollment-token-store-suite.js';
export {
  type PolicyStoreContext,
  type PolicyStoreSuiteOptions,
  policyStoreSuite,
} from './policy-store-suite.js';
export {
  type ProvisionRegistryContext,
  type ProvisionRegistrySuiteOptions,
  provisionRegistrySuite,
} from './provision-registry-suite.js';
export {
  type DeclaredLengthProbe,
  type RelayEdgeLiveContext,
  type RelayEdgeLiveOptions,
  relayEdgeLiveSuite,
} from './relay-edge-live-suite.js';
