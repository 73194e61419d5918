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
export { edgeSuite } from './edge-suite.js';
export { DeclaredLengthProbeError, RelayEdgeLiveOptionsError } from './errors.js';
export {
  type DeclaredLengthProbe,
  type RelayEdgeLiveContext,
  type RelayEdgeLiveOptions,
  relayEdgeLiveSuite,
} from './relay-edge-live-suite.js';
