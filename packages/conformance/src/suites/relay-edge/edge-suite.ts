import { invalidFixtureError } from '../../errors.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import type { RelayEdgeImplementation } from './edge-implementation.js';
import { exchangeCase } from './exchange-cases.js';
import { sanitiserCase } from './sanitiser-cases.js';
import { SIDE_CHANNELS_FIXTURE_NAME, sideChannelsFixture, sideChannelWorld } from './side-channel-fixture.js';
import { verifierCases } from './verifier-cases.js';

const SUITE_NAME = 'relay.edge';

/** Which members of the implementation enable which capability. */
const CAPABILITIES: readonly (readonly [keyof RelayEdgeImplementation, string])[] = [
  ['verifyDiscord', 'discord-verifier'],
  ['verifyTwilio', 'twilio-verifier'],
  ['verifyWeCom', 'wecom-verifier'],
  ['encryptWeComReply', 'wecom-reply'],
  ['connector', 'side-channels'],
  ['sanitiseDiscordInteraction', 'discord-sanitiser'],
];

/**
 * The connector's edge (relay contract §3.1, §6, §6.1): the provider webhook verifiers over
 * `fixtures/relay/edge-verifiers.json` (Discord Ed25519, Twilio HMAC-SHA1, WeCom BizMsgCrypt: valid,
 * tampered, stale, malformed, with their refusal codes, and WeCom reply encryption), and over
 * `fixtures/relay/edge-side-channels.json` the gateway's HTTP side channels — `/relay/enroll`,
 * `/relay/provision`, `/relay/policy` and `/relay/media` as request/response exchanges against a
 * fixed world (statuses, response shapes, one-time tokens, bearer checks, size and name limits,
 * Content-Disposition, tenant isolation) — and the Discord sanitiser (the token cut out of the
 * forward and bound under the baseline and newer session keys). Each part runs when the
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
  const capabilities = new Set<string>();
  for (const [member, capability] of CAPABILITIES) {
    if (implementation[member] !== undefined) capabilities.add(capability);
  }
  return {
    name: SUITE_NAME,
    version: RELAY_SUITE_VERSION,
    description:
      'The connector edge: provider webhook verifiers (edge-verifiers.json), the HTTP side channels ' +
      'enroll, provision, policy and media, and the Discord sanitiser (edge-side-channels.json).',
    cases: [...verifierCases(SUITE_NAME), ...sideChannelCases()],
    setup: () => ({ ctx: implementation, capabilities }),
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
