export { LiveConnectionError, RelayLiveOptionsError } from './errors.js';
export {
  type RelayConnectorContext,
  type RelayConnectorSuiteOptions,
  type RelayHandshakeRecord,
  relayConnectorSuite,
} from './relay-connector-suite.js';
