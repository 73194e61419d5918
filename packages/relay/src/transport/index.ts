export {
  RelayConnectionLostError,
  RelayDescriptorRejectedError,
  RelayHandshakeTimeoutError,
  RelayNotConnectedError,
  RelayOutboundTimeoutError,
  RelayRequestError,
  RelayTransportClosedError,
  RelayTransportError,
  type RelayTransportErrorCode,
  type TransportFailureResult,
} from './errors.js';
export { type PassthroughDelivery, passthroughDeliveryFromForward } from './passthrough-delivery.js';
export type {
  InboundHandler,
  InterruptInboundHandler,
  OutboundOptions,
  PassthroughHandler,
  RelayTransport,
  ResolvedChatInfo,
} from './relay-transport.js';
export { newRequestId } from './request-id.js';
