import { RelayError } from '../../errors.js';
import { EdgeHttpError } from '../http/index.js';

/**
 * The request is not a webhook of the provider: a missing, malformed or wrong signature, a stale
 * timestamp, an undecryptable WeCom payload. Answered 401 `{ error: 'unauthorized', message }` with a
 * message that names the provider and nothing of why; the verifier's error is the `cause`.
 */
export class WebhookUnauthorizedError extends EdgeHttpError {
  override readonly name = 'WebhookUnauthorizedError';
  readonly code = 'edge_webhook_unauthorized';
  readonly status = 401;
  readonly responseCode = 'unauthorized';

  constructor(provider: string, options?: ErrorOptions) {
    super(`the request is not a verified ${provider} webhook`, 'request', options);
  }
}

/**
 * No tenant serves the event: none of its route keys (guild id, DM channel or user, called number,
 * corp id) is provisioned. Answered 404 `{ error: 'unknown_tenant', message }`; nothing is forwarded
 * and no credential is bound. The provider reports a failed delivery (Discord shows "This
 * interaction failed"), which is the truth: no gateway will ever see the event.
 */
export class UnknownTenantError extends EdgeHttpError {
  override readonly name = 'UnknownTenantError';
  readonly code = 'edge_unknown_tenant';
  readonly status = 404;
  readonly responseCode = 'unknown_tenant';

  constructor(platform: string) {
    super(`no tenant is provisioned for this ${platform} event`, 'routeKey');
  }
}

/** A passthrough edge handler was given unusable options, or a callback returned an unusable value. */
export class PassthroughHandlerArgumentError extends RelayError {
  override readonly name = 'PassthroughHandlerArgumentError';
  readonly code = 'edge_passthrough_invalid_argument';
}
