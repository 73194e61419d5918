import { RelayError } from '../../errors.js';
import { encodePassthroughBody } from '../../passthrough/index.js';
import { answeringEdgeErrors, type EdgeHandler } from '../http/index.js';
import { edgeMethodNotAllowed } from '../http/refusals.js';
import { sanitiseWeComMessage } from '../sanitisers/index.js';
import { verifyWeComCallback, type WeComCryptoOptions } from '../verifiers/index.js';
import { readEdgeRequest } from './edge-request.js';
import { forwardHeaders } from './forward-headers.js';
import {
  optionalString,
  type PassthroughHandlerOptions,
  passthroughHandlerSettings,
  requiredString,
  sanitisedOr400,
  unknownTenant,
  verified,
} from './handler-options.js';
import { handOff } from './handoff.js';
import { textResponse } from './responses.js';
import { resolveTenant } from './tenant-resolver.js';

/** The body WeCom expects from a callback that was taken (no passive reply). */
export const WECOM_ACK = 'success';

/** Request headers a WeCom forward keeps besides `content-type`. */
const FORWARDED_HEADERS = ['user-agent'];

/** Options of {@link createWeComEdgeHandler}: the callback's Token, EncodingAESKey and receive id, and more. */
export interface WeComEdgeHandlerOptions extends PassthroughHandlerOptions, WeComCryptoOptions {
  /** The `forward.botId`; default the message's `AgentID`. */
  readonly botId?: string;
  /**
   * The route keys of a decrypted message (its root's text children by name), most specific first,
   * each looked up with `tenantOf('wecom', key)`. Default: `ToUserName` (the corp id; `AgentID` alone
   * is not unique across corps).
   */
  readonly routeKeysOf?: (fields: ReadonlyMap<string, string>) => readonly string[];
  /** Seconds the signed `timestamp` may be off; default 300. */
  readonly maxSkewSeconds?: number;
}

/**
 * The connector's edge for a WeCom (企业微信) callback URL in encrypted (BizMsgCrypt) mode, as a
 * web-standard handler:
 *
 * - `GET` (URL verification): the signed `echostr` is decrypted and answered as plain text, as
 *   WeCom requires; nothing is forwarded.
 * - `POST`: the `<Encrypt>` payload is verified and decrypted here, the plaintext XML is sanitised
 *   (`sanitiseWeComMessage` cuts `SuiteTicket` and `AuthCode` out), routed (`routeKeysOf`; none
 *   found → 404 `unknown_tenant`), buffered as a `passthrough_forward` `{ platform: 'wecom', botId,
 *   method, path, headers, bodyB64 }` whose body is the decrypted XML (`application/xml`), and
 *   answered `success` without waiting for the gateway.
 *
 * The Token, the EncodingAESKey, the ciphertext and the signature query (`msg_signature`,
 * `timestamp`, `nonce`) never leave the edge: the forward's `path` has no query. A refusal is answered
 * 401 `unauthorized`.
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: unusable options (the secrets are checked on
 *   first use by the verifier, whose `invalid_argument` is rethrown).
 *
 * @example
 * const wecom = createWeComEdgeHandler({
 *   token, encodingAesKey, corpId,
 *   tenantOf: tenantResolverFromRegistry(registry),
 *   server: relayServer,
 * });
 * const router = createEdgeRouter({ '/wecom/callback': wecom });
 */
export function createWeComEdgeHandler(options: WeComEdgeHandlerOptions): EdgeHandler {
  const settings = passthroughHandlerSettings(options);
  const crypto: WeComCryptoOptions = {
    token: requiredString(options.token, 'token'),
    encodingAesKey: requiredString(options.encodingAesKey, 'encodingAesKey'),
    corpId: requiredString(options.corpId, 'corpId'),
  };
  const botId = optionalString(options.botId, 'botId');
  const routeKeysOf = options.routeKeysOf ?? defaultWeComRouteKeys;
  if (typeof routeKeysOf !== 'function') {
    throw new RelayError('edge_passthrough_invalid_argument', 'routeKeysOf must be a function', {
      path: 'options.routeKeysOf',
    });
  }
  const maxSkewSeconds = options.maxSkewSeconds;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST' && request.method !== 'GET') {
      throw edgeMethodNotAllowed(request.method, ['GET', 'POST']);
    }
    const edgeRequest = await readEdgeRequest(request, settings.maxBodyBytes);
    const callback = verified('WeCom', () =>
      verifyWeComCallback(edgeRequest, { ...crypto, maxSkewSeconds, now: settings.now() / 1000 }),
    );
    if (callback.kind === 'url_verification')
      return textResponse(200, callback.echo, 'text/plain; charset=utf-8');

    const sanitised = sanitisedOr400(() => sanitiseWeComMessage(callback.message));
    const routeKeys = routeKeysOf(sanitised.fields);
    if (!Array.isArray(routeKeys) || !routeKeys.every((key) => typeof key === 'string')) {
      throw new RelayError(
        'edge_passthrough_invalid_argument',
        'routeKeysOf must return an array of strings',
        { path: 'routeKeysOf' },
      );
    }
    const resolved = await resolveTenant(settings.tenantOf, 'wecom', routeKeys);
    if (resolved === null) throw unknownTenant('wecom');
    const { tenant } = resolved;
    const profile = await settings.profileOf(tenant);
    await handOff(
      settings.server,
      {
        tenant,
        bindings: [],
        forward: {
          platform: 'wecom',
          botId: botId ?? sanitised.fields.get('AgentID') ?? '',
          method: request.method,
          path: new URL(request.url).pathname,
          headers: forwardHeaders(request.headers, 'application/xml; charset=utf-8', FORWARDED_HEADERS),
          bodyB64: encodePassthroughBody(sanitised.forwardedBody),
          ...(profile === null ? {} : { profile }),
        },
      },
      settings.handoffTimeoutMs,
      settings.onError,
    );
    return textResponse(200, WECOM_ACK, 'text/plain; charset=utf-8');
  };

  return answeringEdgeErrors(handle);
}

/** The default route keys: the message's `ToUserName` (the corp id). */
export function defaultWeComRouteKeys(fields: ReadonlyMap<string, string>): readonly string[] {
  const to = fields.get('ToUserName');
  return to === undefined ? [] : [to];
}
