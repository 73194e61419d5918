export {
  createDeliveryMeta,
  type DeliveryMetaInit,
  type DeliveryMetaSource,
} from './create-delivery-meta.js';
export { type DispatchOptions, dispatch } from './dispatch.js';
export {
  type DeliveredOutcome,
  type DispatchOutcome,
  type DispatchResult,
  type DispatchRoute,
  type FailedOutcome,
  HOOK_WAKE_WARNING,
  type ListingFailure,
  NOOP_SKIP_REASON,
  NOOP_WAKE_SKIP_REASON,
  type WokenOutcome,
} from './outcome.js';
