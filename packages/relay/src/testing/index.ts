export type { WireChunk, WireDirection, WireRecord } from './linked-connection.js';
export type { LinkedConnector, LinkedConnectorHandler, PassthroughForwardInput } from './linked-connector.js';
export type { HelloIdentity, LinkedGatewayTransport } from './linked-gateway.js';
export {
  createLinkedTransportPair,
  type LinkedTransportPair,
  type LinkedTransportPairOptions,
} from './linked-pair.js';
export {
  type CannedResults,
  type RecordedInterrupt,
  StubConnector,
  type StubHandlerKind,
} from './stub-connector.js';
