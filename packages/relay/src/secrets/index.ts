export { authenticatorFor } from './authenticator-for.js';
export { checkGatewayKey, checkRotateOptions, checkSecretStoreClock } from './check-arguments.js';
export {
  GatewaySecretRecord,
  type GatewaySecretRecordFields,
  type RedactedGatewaySecretRecord,
} from './gateway-secret-record.js';
export type {
  GatewayAuthenticator,
  GatewaySecretCredentials,
  GatewaySecretStore,
  RotateGatewaySecretOptions,
} from './gateway-secret-store.js';
export {
  InMemoryGatewaySecretStore,
  type InMemoryGatewaySecretStoreOptions,
} from './in-memory-gateway-secret-store.js';
export { GATEWAY_SECRET_BYTES, newGatewaySecret } from './new-gateway-secret.js';
export {
  freshGatewaySecrets,
  gatewaySecretRecordAt,
  type StoredGatewaySecrets,
} from './stored-gateway-secrets.js';
