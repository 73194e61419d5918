import { RelayError } from '../../errors.js';
import { buildSessionKey, SESSION_KEY_DIALECTS, type SessionKeyDialect } from '../../session-key/index.js';
import type { CapabilityBinding } from '../../vault/index.js';
import { discordInteractionSessionSource } from './discord-session-source.js';
import { removeTopLevelMembers } from './json-member-removal.js';
import { decodeUtf8Strict, encodeUtf8 } from './utf8.js';

/** The `follow_up` capability kind a Discord interaction token is bound under. */
export const DISCORD_INTERACTION_TOKEN_KIND = 'discord.interaction_token';

/** How long Discord accepts follow-ups with an interaction token: 15 minutes. */
export const DISCORD_INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;

/**
 * The members of an interaction object that act on the shared bot identity. Discord documents one:
 * `token`, which answers and edits the interaction and sends follow-ups for 15 minutes. Nothing else
 * in the interaction object (ids, `app_permissions`, `member`, `message`, `data`) is a credential.
 */
const CREDENTIAL_MEMBERS: ReadonlySet<string> = new Set(['token']);

/** Options of {@link sanitiseDiscordInteraction}. */
export interface DiscordSanitiseOptions {
  /** The tenant the interaction was routed to; the token is bound for it alone. */
  readonly tenant: string;
  /**
   * The gateway revisions whose session key the token is bound under, one binding each (duplicates
   * dropped). Default: every dialect of `SESSION_KEY_DIALECTS`, so that a baseline and a newer
   * gateway both find it.
   */
  readonly dialects?: readonly SessionKeyDialect[];
  /**
   * The profile the forward carries (`forward.profile`). Newer gateways stamp it on the event, and
   * when they multiplex profiles their session store keys the session under `agent:<profile>:…`; the
   * token is then also bound under that key. Default none.
   */
  readonly profile?: string | null;
  /** The gateway's `group_sessions_per_user` (default `true`, the gateway's default). */
  readonly groupSessionsPerUser?: boolean;
  /** The bindings' time to live; default {@link DISCORD_INTERACTION_TOKEN_TTL_MS}. */
  readonly tokenTtlMs?: number;
}

/** A Discord interaction ready to leave the edge. */
export interface SanitisedDiscordInteraction {
  /** The body to forward: the verified bytes with the `token` member cut out, nothing else changed. */
  readonly forwardedBody: Uint8Array;
  /** The token, bound under each session key the gateway may name in its `follow_up`; empty without one. */
  readonly bindings: readonly CapabilityBinding[];
}

/**
 * Strips the shared-identity credential out of a verified Discord interaction body and binds it for
 * `follow_up` (contract §4, §6): the `token` member is cut out of the raw text — key order,
 * whitespace and every other byte stay as Discord sent them (the gateway parses the JSON, so this is
 * a courtesy, not a requirement) — and, when it is a non-empty string, bound under kind
 * `discord.interaction_token` for `tenant` and each session key the gateway derives for the
 * interaction (see {@link discordInteractionSessionSource}), for 15 minutes. A `token` spelled with
 * escapes (`"tok\u0065n"`) or given twice is removed all the same.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: `body` is not a UTF-8 JSON object, or an id in it
 *   cannot be keyed.
 * @throws {RelayError} `sanitiser_invalid_argument`: unusable options.
 * @throws {RelayError} `invalid_session_source`, `invalid_session_key_options` or
 *   `whatsapp_identifier_unresolvable`: never for a Discord source in practice (the key builder's own
 *   checks).
 *
 * @example
 * const { interaction, body } = verifyDiscordInteraction(edgeRequest, { publicKey });
 * const { forwardedBody, bindings } = sanitiseDiscordInteraction(body, { tenant: 'tenant-a' });
 * for (const binding of bindings) await server.bindCapability(binding);
 * await server.forwardPassthrough('tenant-a', { platform: 'discord', bodyB64: encodePassthroughBody(forwardedBody) });
 */
export function sanitiseDiscordInteraction(
  body: Uint8Array,
  options: DiscordSanitiseOptions,
): SanitisedDiscordInteraction {
  if (!(body instanceof Uint8Array))
    throw new RelayError('sanitiser_invalid_argument', 'body must be a Uint8Array', { path: 'body' });
  const settings = checkOptions(options);
  const text = decodeUtf8Strict(body, 'body');
  const removal = removeTopLevelMembers(text, CREDENTIAL_MEMBERS);
  const interaction = JSON.parse(text) as { readonly [field: string]: unknown };
  const token = interaction['token'];
  const forwardedBody = removal.removed === 0 ? body : encodeUtf8(removal.text);
  if (typeof token !== 'string' || token === '') return { forwardedBody, bindings: [] };

  const sessionKeys = new Set<string>();
  for (const dialect of settings.dialects) {
    const source = discordInteractionSessionSource(interaction, dialect, settings.profile);
    const keyOptions = { dialect, groupSessionsPerUser: settings.groupSessionsPerUser };
    sessionKeys.add(buildSessionKey(source, keyOptions));
    if (source.profile !== undefined) {
      sessionKeys.add(buildSessionKey(source, { ...keyOptions, profile: source.profile }));
    }
  }
  const bindings = [...sessionKeys].map(
    (session_key): CapabilityBinding => ({
      tenant: settings.tenant,
      session_key,
      kind: DISCORD_INTERACTION_TOKEN_KIND,
      credential: token,
      ttl_ms: settings.tokenTtlMs,
    }),
  );
  return { forwardedBody, bindings };
}

interface DiscordSanitiseSettings {
  readonly tenant: string;
  readonly dialects: readonly SessionKeyDialect[];
  readonly profile: string | null;
  readonly groupSessionsPerUser: boolean;
  readonly tokenTtlMs: number;
}

function checkOptions(options: DiscordSanitiseOptions): DiscordSanitiseSettings {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('sanitiser_invalid_argument', 'options must be an object', { path: 'options' });
  }
  const { tenant, dialects = SESSION_KEY_DIALECTS, profile = null } = options;
  if (typeof tenant !== 'string' || tenant === '') {
    throw new RelayError('sanitiser_invalid_argument', 'tenant must be a non-empty string', {
      path: 'options.tenant',
    });
  }
  if (
    !Array.isArray(dialects) ||
    dialects.length === 0 ||
    !dialects.every((dialect) => SESSION_KEY_DIALECTS.includes(dialect))
  ) {
    throw new RelayError(
      'sanitiser_invalid_argument',
      `dialects must be a non-empty array of ${SESSION_KEY_DIALECTS.join(', ')}`,
      { path: 'options.dialects' },
    );
  }
  if (profile !== null && typeof profile !== 'string') {
    throw new RelayError('sanitiser_invalid_argument', 'profile must be a string or null', {
      path: 'options.profile',
    });
  }
  const groupSessionsPerUser = options.groupSessionsPerUser ?? true;
  if (typeof groupSessionsPerUser !== 'boolean') {
    throw new RelayError('sanitiser_invalid_argument', 'groupSessionsPerUser must be a boolean', {
      path: 'options.groupSessionsPerUser',
    });
  }
  const tokenTtlMs = options.tokenTtlMs ?? DISCORD_INTERACTION_TOKEN_TTL_MS;
  if (typeof tokenTtlMs !== 'number' || !Number.isFinite(tokenTtlMs) || tokenTtlMs <= 0) {
    throw new RelayError('sanitiser_invalid_argument', 'tokenTtlMs must be a positive finite number', {
      path: 'options.tokenTtlMs',
    });
  }
  return { tenant, dialects, profile, groupSessionsPerUser, tokenTtlMs };
}
