import sideChannelsJson from '../../../fixtures/relay/edge-side-channels.json' with { type: 'json' };
import webhooksJson from '../../../fixtures/relay/edge-webhooks.json' with { type: 'json' };
import { invalidFixtureError } from '../../errors.js';
import { readFixtureFile, readObject, readPositiveInteger, readString } from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { RELAY_EDGE_SUITE_VERSION } from '../relay/suite-version.js';
import type { EdgeWorld, RelayEdgeImplementation } from './edge-implementation.js';
import { exchangeCase } from './exchange-cases.js';
import { sanitiserCase } from './sanitiser-cases.js';
import { verifierCases } from './verifier-cases.js';
import { readWebhookWorld, webhookCase } from './webhook-cases.js';

/** The name `edge-side-channels.json` is reported under. */
export const SIDE_CHANNELS_FIXTURE_NAME = 'relay/edge-side-channels.json';

/** The cases of `edge-side-channels.json`. */
export const sideChannelsFixture = readFixtureFile(sideChannelsJson, SIDE_CHANNELS_FIXTURE_NAME);

/** The fixture's `world`: what every side-channel case starts from. */
export const sideChannelWorld: EdgeWorld = readWorld(
  (sideChannelsJson as { readonly world?: unknown }).world,
  `${SIDE_CHANNELS_FIXTURE_NAME} world`,
);

/** The name `edge-webhooks.json` is reported under. */
export const WEBHOOKS_FIXTURE_NAME = 'relay/edge-webhooks.json';

/** The cases of `edge-webhooks.json`. */
export const webhooksFixture = readFixtureFile(webhooksJson, WEBHOOKS_FIXTURE_NAME);

/** The fixture's `world`: what every webhook-handler case starts from. */
export const webhookWorld = readWebhookWorld(
  (webhooksJson as { readonly world?: unknown }).world,
  `${WEBHOOKS_FIXTURE_NAME} world`,
);

function readWorld(value: unknown, location: string): EdgeWorld {
  const world = readObject(value, location);
  const identities = readObject(world['identities'], `${location}.identities`);
  return {
    now: readPositiveInteger(world['now'], `${location}.now`),
    identities: Object.fromEntries(
      Object.entries(identities).map(([token, identity]) => {
        const fields = readObject(identity, `${location}.identities.${token}`);
        const at = `${location}.identities.${token}`;
        return [
          token,
          {
            subject: readString(fields['subject'], `${at}.subject`),
            tenant: readString(fields['tenant'], `${at}.tenant`),
          },
        ];
      }),
    ),
    gateways: readList(world['gateways'], `${location}.gateways`).map((entry, i) => {
      const at = `${location}.gateways[${i}]`;
      const fields = readObject(entry, at);
      return {
        gatewayId: readString(fields['gateway_id'], `${at}.gateway_id`),
        tenant: readString(fields['tenant'], `${at}.tenant`),
      };
    }),
    enrollmentTokens: readList(world['enrollment_tokens'], `${location}.enrollment_tokens`).map(
      (entry, i) => {
        const at = `${location}.enrollment_tokens[${i}]`;
        const fields = readObject(entry, at);
        return {
          name: readString(fields['name'], `${at}.name`),
          tenant: readString(fields['tenant'], `${at}.tenant`),
          ttlSeconds: readPositiveInteger(fields['ttl_seconds'], `${at}.ttl_seconds`),
        };
      },
    ),
  };
}

function readList(value: unknown, location: string): readonly unknown[] {
  if (!Array.isArray(value)) throw invalidFixtureError(location, 'expected an array');
  return value;
}

const SUITE_NAME = 'relay.edge';

/** The members of a RelayEdgeImplementation that provide each capability. */
const EDGE_MEMBERS = {
  'discord-verifier': ['verifyDiscord'],
  'twilio-verifier': ['verifyTwilio'],
  'wecom-verifier': ['verifyWeCom'],
  'wecom-reply': ['encryptWeComReply'],
  'side-channels': ['connector'],
  'discord-sanitiser': ['sanitiseDiscordInteraction'],
  'discord-handler': ['discordWebhookEdge'],
  'twilio-handler': ['twilioWebhookEdge'],
  'wecom-handler': ['weComWebhookEdge'],
} as const satisfies CapabilityMembers<RelayEdgeImplementation>;

/**
 * The connector's edge (relay contract §3.1, §6, §6.1): the provider webhook verifiers over
 * `fixtures/relay/edge-verifiers.json` (Discord Ed25519, Twilio HMAC-SHA1, WeCom BizMsgCrypt: valid,
 * tampered, stale, malformed, with their refusal codes, the recommended `invalid_argument` refusals of
 * unusable arguments, and WeCom reply encryption and its refusals), and over
 * `fixtures/relay/edge-side-channels.json` the gateway's HTTP side channels — `/relay/enroll`,
 * `/relay/provision`, `/relay/policy` and `/relay/media` as request/response exchanges against a
 * fixed world (statuses, response shapes, one-time tokens, bearer checks, size and name limits,
 * Content-Disposition, tenant isolation) — and the Discord sanitiser (the token cut out of the
 * forward and bound under the baseline and newer session keys); and over
 * `fixtures/relay/edge-webhooks.json` the webhook handlers of Discord, Twilio and WeCom (§3.1: the
 * provider's answer decided at the edge, the tenant from the event's own route key, credentials bound
 * and cut out, the `passthrough_forward` handed to the relay with an allow-list of headers; 401, 404,
 * 405 and 413 refusals that hand nothing off). Each part runs when the
 * implementation has its member; cases tagged `sdk` are `recommended`.
 *
 * @example
 * ```ts
 * import { verifyDiscordInteraction } from '@agentwire/relay/edge';
 * const suite = edgeSuite({
 *   verifyDiscord: (request, { publicKey, now, maxSkewSeconds }) => {
 *     const headers = new Headers(request.headers.map(([k, v]) => [k, v]));
 *     const { interaction, timestamp } = verifyDiscordInteraction(
 *       { ...request, headers },
 *       { publicKey, now, ...(maxSkewSeconds !== undefined && { maxSkewSeconds }) },
 *     );
 *     return { interaction, timestamp };
 *   },
 *   errorCode: (error) => (error as { code?: string }).code,
 * });
 * ```
 */
export function edgeSuite(
  implementation: RelayEdgeImplementation,
): ConformanceSuite<RelayEdgeImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, EDGE_MEMBERS));
  return {
    name: SUITE_NAME,
    version: RELAY_EDGE_SUITE_VERSION,
    description:
      'The connector edge: provider webhook verifiers (edge-verifiers.json), the HTTP side channels ' +
      'enroll, provision, policy and media, and the Discord sanitiser (edge-side-channels.json), and the ' +
      'Discord, Twilio and WeCom webhook handlers (edge-webhooks.json).',
    cases: [...verifierCases(SUITE_NAME), ...sideChannelCases(), ...webhookCases()],
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(EDGE_MEMBERS, 'RelayEdgeImplementation'),
  };
}

function sideChannelCases(): ConformanceCase<RelayEdgeImplementation>[] {
  return sideChannelsFixture.cases.map((entry, index) => {
    const location = `${SIDE_CHANNELS_FIXTURE_NAME} cases[${index}]`;
    switch (entry['kind']) {
      case 'exchange':
        return exchangeCase(entry, location, sideChannelWorld, SUITE_NAME);
      case 'discord_sanitise':
        return sanitiserCase(entry, location, SUITE_NAME);
      default:
        throw invalidFixtureError(`${location}.kind`, 'expected "exchange" or "discord_sanitise"');
    }
  });
}

function webhookCases(): ConformanceCase<RelayEdgeImplementation>[] {
  return webhooksFixture.cases.map((entry, index) =>
    webhookCase(entry, `${WEBHOOKS_FIXTURE_NAME} cases[${index}]`, webhookWorld, SUITE_NAME),
  );
}
