import { RelayError } from '../../errors.js';
import { isPythonTruthy, pythonStr } from '../../python/index.js';
import type { SessionKeyDialect } from '../../session-key/index.js';

/**
 * The session source a gateway builds for a forwarded Discord interaction, under the wire names of
 * `SessionSource`. `profile` is present only for the `upstream-2026-09-21` dialect, when set.
 */
export interface DiscordInteractionSessionSource {
  readonly platform: 'relay' | 'discord';
  readonly chat_id: string;
  readonly chat_type: 'channel' | 'group' | 'dm';
  readonly user_id: string | null;
  readonly user_name: string | null;
  readonly scope_id: string | null;
  readonly message_id: string | null;
  readonly profile?: string;
}

/**
 * The `SessionSource` the gateway's passthrough handler derives from a Discord interaction object,
 * per gateway revision (`dialect`):
 *
 * - `baseline-2026-07-26`: `platform: 'relay'`, `chat_type` `'channel'` in a guild, else `'dm'`
 *   (session key `agent:main:relay:channel:<channel>:<user>`);
 * - `upstream-2026-09-21`: `platform: 'discord'`, `chat_type` `'group'` in a guild, else `'dm'`, and
 *   the forward's `profile` stamped on the source (key `agent:main:discord:group:<channel>:<user>`).
 *
 * In both, `chat_id` is `str(channel_id or "")`, the user is `member.user`, else `user`, and ids are
 * rendered with Python's `str()` when truthy, `null` otherwise.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: an id that is neither a string nor a safe integer (the
 * gateway would `str()` it into a form that cannot be reproduced here).
 *
 * @example
 * discordInteractionSessionSource(
 *   { type: 2, guild_id: 'G1', channel_id: 'C1', member: { user: { id: 'U1', username: 'ann' } } },
 *   'upstream-2026-09-21',
 * ); // { platform: 'discord', chat_id: 'C1', chat_type: 'group', user_id: 'U1', … }
 */
export function discordInteractionSessionSource(
  interaction: { readonly [field: string]: unknown },
  dialect: SessionKeyDialect,
  profile: string | null = null,
): DiscordInteractionSessionSource {
  const member = interaction['member'];
  const memberUser = isObject(member) ? member['user'] : undefined;
  const user = truthy(memberUser) ? memberUser : truthy(interaction['user']) ? interaction['user'] : {};
  const userFields = isObject(user) ? user : {};
  const inGuild = truthy(interaction['guild_id']);
  const upstream = dialect === 'upstream-2026-09-21';
  const source: DiscordInteractionSessionSource = {
    platform: upstream ? 'discord' : 'relay',
    chat_id: idText(interaction['channel_id'], 'channel_id') ?? '',
    chat_type: inGuild ? (upstream ? 'group' : 'channel') : 'dm',
    user_id: idText(userFields['id'], 'user.id'),
    user_name: idText(userFields['username'], 'user.username'),
    scope_id: idText(interaction['guild_id'], 'guild_id'),
    message_id: idText(interaction['id'], 'id'),
  };
  return upstream && profile !== null && profile !== '' ? { ...source, profile } : source;
}

function isObject(value: unknown): value is { readonly [field: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function truthy(value: unknown): boolean {
  return isPythonTruthy(value as Parameters<typeof isPythonTruthy>[0]);
}

/** Python's `str(value) if value else None`, for the values whose `str()` is reproducible. */
function idText(value: unknown, path: string): string | null {
  if (!truthy(value)) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value))) {
    return pythonStr(value);
  }
  throw new RelayError(
    'sanitiser_malformed_payload',
    `interaction ${path} must be a string or an integer id, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    { path },
  );
}
