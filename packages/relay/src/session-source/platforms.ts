import { pythonStrip } from '../python/index.js';

/** The gateway's built-in platform names (`gateway.config.Platform` values). */
export const BUILTIN_PLATFORMS: readonly string[] = [
  'local',
  'telegram',
  'discord',
  'whatsapp',
  'whatsapp_cloud',
  'slack',
  'signal',
  'mattermost',
  'matrix',
  'homeassistant',
  'email',
  'sms',
  'dingtalk',
  'api_server',
  'webhook',
  'msgraph_webhook',
  'feishu',
  'wecom',
  'wecom_callback',
  'weixin',
  'bluebubbles',
  'qqbot',
  'yuanbao',
  'relay',
];

/** Platform names the gateway's bundled plugins register. */
export const PLUGIN_PLATFORMS: readonly string[] = [
  'google_chat',
  'irc',
  'line',
  'teams',
  'ntfy',
  'photon',
  'raft',
  'simplex',
];

/** The platform an unknown or non-string `source.platform` silently becomes. */
export const FALLBACK_PLATFORM = 'relay';

const KNOWN = new Set([...BUILTIN_PLATFORMS, ...PLUGIN_PLATFORMS]);

/** Whether `name` is a platform name the gateway knows, spelled exactly (lowercase, no blanks). */
export function isKnownPlatform(name: string): boolean {
  return KNOWN.has(name);
}

/**
 * The platform the gateway's relay reader makes of a wire `source.platform` (`Platform(value)` with
 * its case- and blank-tolerant lookup): a known name in any case with surrounding whitespace gives
 * that name; anything else, including non-strings, gives `"relay"`. The session key uses the result.
 */
export function canonicalPlatform(value: unknown): string {
  return lookUpPlatform(value) ?? FALLBACK_PLATFORM;
}

/**
 * The gateway's `Platform(value)`: the known name `value` is, exactly or once Python-stripped and
 * lowercased; `undefined` where Python raises `ValueError` (unknown names, blank strings, non-strings).
 */
export function lookUpPlatform(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (KNOWN.has(value)) return value;
  const folded = pythonStrip(value).toLowerCase();
  return KNOWN.has(folded) ? folded : undefined;
}
