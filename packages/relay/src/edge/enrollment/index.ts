export type { CallerIdentity, CallerIdentityVerifier } from './caller-identity.js';
export { createEnrollHandler, type EnrollHandlerOptions } from './enroll-handler.js';
export { type EnrollmentRoutesOptions, enrollmentRoutes } from './enrollment-routes.js';
export type {
  EnrollmentTokenGrant,
  EnrollmentTokenRedemption,
  EnrollmentTokenRefusal,
  EnrollmentTokenStore,
} from './enrollment-token-store.js';
export {
  DEFAULT_ENROLLMENT_MAX_BODY_BYTES,
  type EnrollmentHandlerBaseOptions,
} from './handler-options.js';
export {
  InMemoryEnrollmentTokenStore,
  type InMemoryEnrollmentTokenStoreOptions,
} from './in-memory-enrollment-token-store.js';
export { InMemoryPolicyStore } from './in-memory-policy-store.js';
export { InMemoryProvisionRegistry } from './in-memory-provision-registry.js';
export { createPolicyHandler, type PolicyHandlerOptions } from './policy-handler.js';
export type { GatewayRelevancePolicy, PolicyStore, RelevancePolicy } from './policy-store.js';
export { createProvisionHandler, type ProvisionHandlerOptions } from './provision-handler.js';
export type { ProvisionedRoute, ProvisionRegistration, ProvisionRegistry } from './provision-registry.js';
export {
  type EnrollRequest,
  enrollRequestSchema,
  MAX_DISPLAY_NAME_LENGTH,
  type PolicyRequest,
  type ProvisionRequest,
  policyRequestSchema,
  provisionRequestSchema,
} from './request-bodies.js';
export type { GatewayCredentialsBody } from './secret-response.js';
export { checkEdgeName, checkProvisionRegistration, checkRelevancePolicy } from './store-arguments.js';
