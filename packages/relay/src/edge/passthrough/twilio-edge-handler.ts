import { RelayError } from '../../errors.js';
import { encodePassthroughBody } from '../../passthrough/index.js';
import { answeringEdgeErrors, type EdgeHandler } from '../http/index.js';
import { edgeMethodNotAllowed } from '../http/refusals.js';
import { type VerifiedTwilioWebhook, verifyTwilioWebhook } from '../verifiers/index.js';
import { pathAndQuery, readEdgeRequest } from './edge-request.js';
import { forwardHeaders } from './forward-headers.js';
import {
  optionalString,
  type PassthroughHandlerOptions,
  passthroughHandlerSettings,
  requiredString,
  unknownTenant,
  verified,
} from './handler-options.js';
import { handOff } from './handoff.js';
import { textResponse } from './responses.js';
import { resolveTenant } from './tenant-resolver.js';

/** The answer to every accepted Twilio webhook: TwiML that does nothing (the gateway replies later). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Request headers a Twilio forward keeps besides `content-type`. */
const FORWARDED_HEADERS = ['user-agent', 'i-twilio-idempotency-token'];

/** Options of {@link createTwilioEdgeHandler}. */
export interface TwilioEdgeHandlerOptions extends PassthroughHandlerOptions {
  /** The account's Auth Token, the key of `X-Twilio-Signature`. */
  readonly authToken: string;
  /** The `forward.botId`; default the webhook's `AccountSid` parameter. */
  readonly botId?: string;
  /**
   * The route keys of a webhook, most specific first, each looked up with `tenantOf('twilio', key)`.
   * Default: the `To` parameter (the number that was called or texted) of a form webhook; none for a
   * JSON one (say where its tenant is).
   */
  readonly routeKeysOf?: (webhook: VerifiedTwilioWebhook) => readonly string[];
}

/**
 * The connector's edge for Twilio webhooks (messaging), as a web-standard handler for `POST` and
 * `GET` (Twilio can be set to either). Mount it under the exact public URL configured in Twilio: the
 * signature covers that URL (behind a proxy, give `toNodeListener` the public `origin`).
 *
 * The request is verified (`X-Twilio-Signature`; refusal → 401 `unauthorized`), routed by its own
 * parameters (`routeKeysOf`; none found → 404 `unknown_tenant`), buffered as a
 * `passthrough_forward` `{ platform: 'twilio', botId, method, path (with the query), headers, bodyB64 }`
 * and answered with empty TwiML (`text/xml`) without waiting for the gateway.
 *
 * Nothing is stripped from the body: a Twilio webhook's parameters are ids and content, none of them
 * a credential, so the verified bytes are forwarded as they are. The credentials around it stay at
 * the edge: the `X-Twilio-Signature` (replayable against this URL), any `Authorization` (basic-auth
 * credentials in the webhook URL) — only `content-type`, `user-agent` and
 * `i-twilio-idempotency-token` are forwarded.
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: unusable options.
 *
 * @example
 * const twilio = createTwilioEdgeHandler({
 *   authToken: process.env.TWILIO_AUTH_TOKEN!,
 *   tenantOf: tenantResolverFromRegistry(registry),
 *   server: relayServer,
 * });
 * const router = createEdgeRouter({ '/twilio/sms': twilio });
 */
export function createTwilioEdgeHandler(options: TwilioEdgeHandlerOptions): EdgeHandler {
  const settings = passthroughHandlerSettings(options);
  const authToken = requiredString(options.authToken, 'authToken');
  const botId = optionalString(options.botId, 'botId');
  const routeKeysOf = options.routeKeysOf ?? defaultTwilioRouteKeys;
  if (typeof routeKeysOf !== 'function') {
    throw new RelayError('edge_passthrough_invalid_argument', 'routeKeysOf must be a function', {
      path: 'options.routeKeysOf',
    });
  }

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST' && request.method !== 'GET') {
      throw edgeMethodNotAllowed(request.method, ['POST', 'GET']);
    }
    const edgeRequest = await readEdgeRequest(request, settings.maxBodyBytes);
    const webhook = verified('Twilio', () => verifyTwilioWebhook(edgeRequest, { authToken }));
    const routeKeys = routeKeysOf(webhook);
    if (!Array.isArray(routeKeys) || !routeKeys.every((key) => typeof key === 'string')) {
      throw new RelayError(
        'edge_passthrough_invalid_argument',
        'routeKeysOf must return an array of strings',
        { path: 'routeKeysOf' },
      );
    }
    const resolved = await resolveTenant(settings.tenantOf, 'twilio', routeKeys);
    if (resolved === null) throw unknownTenant('twilio');
    const { tenant } = resolved;
    const profile = await settings.profileOf(tenant);
    const contentType = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
    await handOff(
      settings.server,
      {
        tenant,
        bindings: [],
        forward: {
          platform: 'twilio',
          botId: botId ?? twilioParam(webhook, 'AccountSid') ?? '',
          method: request.method,
          path: pathAndQuery(request.url),
          headers: forwardHeaders(request.headers, contentType, FORWARDED_HEADERS),
          bodyB64: encodePassthroughBody(webhook.body),
          ...(profile === null ? {} : { profile }),
        },
      },
      settings.handoffTimeoutMs,
      settings.onError,
    );
    return textResponse(200, EMPTY_TWIML, 'text/xml; charset=utf-8');
  };

  return answeringEdgeErrors(handle);
}

/** The default route keys: the `To` parameter of a form webhook. */
export function defaultTwilioRouteKeys(webhook: VerifiedTwilioWebhook): readonly string[] {
  const to = twilioParam(webhook, 'To');
  return to === undefined ? [] : [to];
}

/** The first value of a form parameter, or undefined (always for a JSON webhook). */
function twilioParam(webhook: VerifiedTwilioWebhook, name: string): string | undefined {
  if (webhook.kind !== 'form') return undefined;
  return webhook.params.find(([key]) => key === name)?.[1];
}
