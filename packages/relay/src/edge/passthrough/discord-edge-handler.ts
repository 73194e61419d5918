import { RelayError } from '../../errors.js';
import { encodePassthroughBody } from '../../passthrough/index.js';
import { SESSION_KEY_DIALECTS, type SessionKeyDialect } from '../../session-key/index.js';
import { answeringEdgeErrors, type EdgeHandler, jsonResponse } from '../http/index.js';
import { edgeMethodNotAllowed } from '../http/refusals.js';
import { sanitiseDiscordInteraction } from '../sanitisers/index.js';
import { type DiscordInteraction, verifyDiscordInteraction } from '../verifiers/index.js';
import { pathAndQuery, readEdgeRequest } from './edge-request.js';
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
import { resolveTenant } from './tenant-resolver.js';

/** Discord interaction types the edge answers differently. */
const PING = 1;
const MESSAGE_COMPONENT = 3;
const APPLICATION_COMMAND_AUTOCOMPLETE = 4;

/** Discord interaction callback types the edge answers with. */
export const DISCORD_CALLBACK = {
  PONG: 1,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
} as const;

/** Request headers a Discord forward keeps besides `content-type`. */
const FORWARDED_HEADERS = ['user-agent'];

/** Options of {@link createDiscordEdgeHandler}. */
export interface DiscordEdgeHandlerOptions extends PassthroughHandlerOptions {
  /** The application's Ed25519 public key from the Developer Portal: 64 hex characters. */
  readonly publicKey: string;
  /** The `forward.botId`; default the interaction's `application_id`. */
  readonly botId?: string;
  /** The gateway revisions the token is bound for (one session key each); default all. */
  readonly dialects?: readonly SessionKeyDialect[];
  /** The gateways' `group_sessions_per_user` (default `true`). */
  readonly groupSessionsPerUser?: boolean;
  /** Seconds the signed timestamp may be off; default 300. */
  readonly maxSkewSeconds?: number;
}

/**
 * The connector's edge for Discord's Interactions Endpoint URL, as a web-standard handler (`POST`
 * only; mount it with `createEdgeRouter` or `toNodeListener`):
 *
 * 1. the raw body is verified (Ed25519 over `X-Signature-Timestamp` + body); a refusal is answered
 *    401 `{ error: 'unauthorized' }` (Discord probes endpoints with bad signatures);
 * 2. a PING is answered `{"type":1}` here and never forwarded; an autocomplete request is answered
 *    with no choices (it cannot be deferred, and no gateway turn should run for a keystroke);
 * 3. the tenant comes from the interaction itself: its `guild_id`, or in a DM its `channel_id`, then
 *    its user id, each looked up with `tenantOf('discord', key)`; none → 404 `unknown_tenant`;
 * 4. the `token` is cut out of the body and bound in the vault for `follow_up`
 *    (`sanitiseDiscordInteraction`: kind `discord.interaction_token`, 15 minutes, under the session
 *    keys of the baseline and the newer gateway), then the sanitised request is buffered as a
 *    `passthrough_forward` `{ platform: 'discord', botId, method, path, headers, bodyB64, profile? }`
 *    for the tenant — delivered when its gateway is connected, kept until then;
 * 5. Discord is answered at once with a deferred response: `{"type":6}` (DEFERRED_UPDATE_MESSAGE) for
 *    a component interaction, `{"type":5}` (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) for the rest.
 *
 * The answer never waits for the gateway; it waits for step 4 to be stored for at most
 * `handoffTimeoutMs`. Forwarded headers: `content-type` and `user-agent` only — never the signature
 * headers, which sign a body the gateway does not get. A store failing in time is answered 500 (by
 * the router or `toNodeListener`, which rethrown errors reach).
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: unusable options.
 *
 * @example
 * const discord = createDiscordEdgeHandler({
 *   publicKey: process.env.DISCORD_PUBLIC_KEY!,
 *   tenantOf: tenantResolverFromRegistry(registry),
 *   server: relayServer,
 * });
 * http.createServer(toNodeListener(createEdgeRouter({ 'POST /discord/interactions': discord }))).listen(8443);
 */
export function createDiscordEdgeHandler(options: DiscordEdgeHandlerOptions): EdgeHandler {
  const settings = passthroughHandlerSettings(options);
  const publicKey = requiredString(options.publicKey, 'publicKey');
  if (!/^[0-9a-fA-F]{64}$/.test(publicKey)) {
    throw new RelayError('edge_passthrough_invalid_argument', 'publicKey must be 64 hex characters', {
      path: 'options.publicKey',
    });
  }
  const botId = optionalString(options.botId, 'botId');
  const dialects = options.dialects ?? SESSION_KEY_DIALECTS;
  if (
    !Array.isArray(dialects) ||
    dialects.length === 0 ||
    !dialects.every((dialect) => SESSION_KEY_DIALECTS.includes(dialect))
  ) {
    throw new RelayError(
      'edge_passthrough_invalid_argument',
      `dialects must be a non-empty array of ${SESSION_KEY_DIALECTS.join(', ')}`,
      { path: 'options.dialects' },
    );
  }
  const groupSessionsPerUser = options.groupSessionsPerUser ?? true;
  if (typeof groupSessionsPerUser !== 'boolean') {
    throw new RelayError('edge_passthrough_invalid_argument', 'groupSessionsPerUser must be a boolean', {
      path: 'options.groupSessionsPerUser',
    });
  }
  const maxSkewSeconds = options.maxSkewSeconds;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') throw edgeMethodNotAllowed(request.method, ['POST']);
    const edgeRequest = await readEdgeRequest(request, settings.maxBodyBytes);
    const { interaction, body } = verified('Discord', () =>
      verifyDiscordInteraction(edgeRequest, { publicKey, maxSkewSeconds, now: settings.now() / 1000 }),
    );
    if (interaction.type === PING) return jsonResponse(200, { type: DISCORD_CALLBACK.PONG });
    if (interaction.type === APPLICATION_COMMAND_AUTOCOMPLETE) {
      return jsonResponse(200, {
        type: DISCORD_CALLBACK.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
        data: { choices: [] },
      });
    }

    const resolved = await resolveTenant(settings.tenantOf, 'discord', discordRouteKeys(interaction));
    if (resolved === null) throw unknownTenant('discord');
    const { tenant } = resolved;
    const profile = await settings.profileOf(tenant);
    const sanitised = sanitisedOr400(() =>
      sanitiseDiscordInteraction(body, { tenant, dialects, groupSessionsPerUser, profile }),
    );
    const applicationId = interaction['application_id'];
    await handOff(
      settings.server,
      {
        tenant,
        bindings: sanitised.bindings,
        forward: {
          platform: 'discord',
          botId: botId ?? (typeof applicationId === 'string' ? applicationId : ''),
          method: request.method,
          path: pathAndQuery(request.url),
          headers: forwardHeaders(request.headers, 'application/json', FORWARDED_HEADERS),
          bodyB64: encodePassthroughBody(sanitised.forwardedBody),
          ...(profile === null ? {} : { profile }),
        },
      },
      settings.handoffTimeoutMs,
      settings.onError,
    );
    const deferred =
      interaction.type === MESSAGE_COMPONENT
        ? DISCORD_CALLBACK.DEFERRED_UPDATE_MESSAGE
        : DISCORD_CALLBACK.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE;
    return jsonResponse(200, { type: deferred });
  };

  return answeringEdgeErrors(handle);
}

/**
 * Where a Discord interaction routes: its guild, or in a DM its channel, then its user. Ids that are
 * not strings are skipped (Discord sends snowflakes as strings).
 */
export function discordRouteKeys(interaction: DiscordInteraction): string[] {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const guild = text(interaction['guild_id']);
  if (guild !== '') return [guild];
  const member = interaction['member'];
  const memberUser =
    typeof member === 'object' && member !== null ? (member as { user?: unknown }).user : undefined;
  const user = memberUser ?? interaction['user'];
  const userId = typeof user === 'object' && user !== null ? text((user as { id?: unknown }).id) : '';
  return [text(interaction['channel_id']), userId].filter((key) => key !== '');
}
