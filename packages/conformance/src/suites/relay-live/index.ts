export {
  ConformanceError,
  type ConformanceErrorCode,
  type ConformanceErrorDetails,
  type ConformanceErrorOptions,
} from '../../errors.js';
export {
  type RelayConnectorContext,
  type RelayConnectorSuiteOptions,
  type RelayHandshakeRecord,
  relayConnectorSuite,
} from './relay-connector-suite.js';
