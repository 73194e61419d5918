export {
  RelayTransportError,
  type RelayTransportErrorCode,
  type RelayTransportErrorDetails,
  type RelayTransportErrorOptions,
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
