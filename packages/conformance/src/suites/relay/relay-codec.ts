import { requiredCapabilities } from '../../run-suite.js';
import type { CapabilityNeed, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { DESCRIPTOR_MEMBERS, type DescriptorImplementation, descriptorCases } from './descriptor-cases.js';
import {
  FRAME_MEMBERS,
  FRAME_PYTHON_STYLE_NEED,
  type FrameCodecImplementation,
  frameCapabilities,
  frameCases,
} from './frame-cases.js';
import {
  MESSAGE_EVENT_MEMBERS,
  type MessageEventImplementation,
  messageEventCapabilities,
  messageEventCases,
  messageEventDialectNeeds,
} from './message-event-cases.js';
import {
  PASSTHROUGH_MEMBERS,
  type PassthroughImplementation,
  passthroughCases,
} from './passthrough-cases.js';
import {
  SESSION_SOURCE_FROM_DICT_MEMBERS,
  SESSION_SOURCE_MEMBERS,
  type SessionSourceFromDictImplementation,
  type SessionSourceImplementation,
  sessionSourceCases,
  sessionSourceFromDictCases,
} from './session-source-cases.js';
import { RELAY_CODEC_SUITE_VERSION } from './suite-version.js';

/**
 * The relay wire codecs under test. Every function is optional: each one declares a capability, and
 * the cases of a function the implementation does not offer are skipped.
 */
export interface RelayCodecImplementation
  extends DescriptorImplementation,
    SessionSourceImplementation,
    SessionSourceFromDictImplementation,
    FrameCodecImplementation,
    PassthroughImplementation,
    MessageEventImplementation {
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const SUITE_NAME = 'relay.codec';

/** The members of a RelayCodecImplementation that provide each capability (frames and events aside). */
const MEMBERS = {
  ...DESCRIPTOR_MEMBERS,
  ...SESSION_SOURCE_MEMBERS,
  ...SESSION_SOURCE_FROM_DICT_MEMBERS,
  ...PASSTHROUGH_MEMBERS,
} as const satisfies CapabilityMembers<RelayCodecImplementation>;

/** Cases no JavaScript implementation runs: the fixture's integral floats read as integers. */
const PYTHON_NUMBER_NEED = {
  'python-number-fidelity': {
    provide:
      'a reader that keeps an integral float (`1.0`) apart from the integer, as Python does; none in JavaScript, so these cases are for other languages',
  },
} as const satisfies Readonly<Record<string, CapabilityNeed>>;

/**
 * What goes on the relay wire, from eight fixture files: CapabilityDescriptor parsing with the
 * gateway's `from_json` rules and, since 1.2.0, its `to_json()`, message lengths and code-block support
 * (`fixtures/relay/descriptors.json`, ids `relay.codec.descriptors.*`),
 * SessionSource to and from the wire with key order (`session-source.json`, `relay.codec.session-source.*`),
 * the gateway's persistence reader `from_dict()` (`session-source-from-dict.json`,
 * `relay.codec.session-source-from-dict.*`, recommended since 1.1.0),
 * frame decoding, encoding and streaming under arbitrary chunking (`frames.json`, `relay.codec.frames.*`),
 * passthrough bodies, headers, prompt callback tokens and connector URLs (`passthrough.json`,
 * `relay.codec.passthrough.*`), and since 1.2.0 the inbound events the gateway makes itself: the Slack
 * `/hermes` parent-command rewrite (`slack-parent-commands.json`, `relay.codec.slack-parent-commands.*`)
 * and Discord interactions forwarded on the passthrough plane with their session keys
 * (`discord-interaction-events.json`, `relay.codec.discord-interaction-events.*`), and since 1.3.0
 * the gateway's reader of an inbound `event`, with an event written back for it
 * (`inbound-events.json`, `relay.codec.inbound-events.*`). Cases tagged `sdk` or
 * `stricter-than-reference` are `recommended`.
 *
 * @example
 * ```ts
 * import { parseDescriptor, descriptorSupportsOp, encodePassthroughBody } from '@agentwire/relay';
 * const report = await runSuite(
 *   relayCodecSuite({ parseDescriptor, descriptorSupportsOp, encodePassthroughBody }),
 * );
 * // the session-source, frame and remaining passthrough cases are skipped
 * ```
 */
export function relayCodecSuite(
  implementation: RelayCodecImplementation,
): ConformanceSuite<RelayCodecImplementation> {
  const capabilities = new Set([
    ...providedCapabilities(implementation, MEMBERS),
    ...frameCapabilities(implementation),
    ...messageEventCapabilities(implementation),
  ]);
  const cases = [
    ...descriptorCases<RelayCodecImplementation>(SUITE_NAME),
    ...sessionSourceCases<RelayCodecImplementation>(SUITE_NAME),
    ...sessionSourceFromDictCases<RelayCodecImplementation>(SUITE_NAME),
    ...frameCases<RelayCodecImplementation>(SUITE_NAME),
    ...passthroughCases<RelayCodecImplementation>(SUITE_NAME),
    ...messageEventCases<RelayCodecImplementation>(SUITE_NAME),
  ];
  return {
    name: SUITE_NAME,
    version: RELAY_CODEC_SUITE_VERSION,
    description:
      'The relay wire codecs: CapabilityDescriptor parsing, SessionSource to and from the wire and from ' +
      'storage (from_dict), NDJSON ' +
      'frame decoding, encoding and streaming, the passthrough plane (bodies, headers, prompt ' +
      'callback tokens, connector URLs), the descriptor views, the Slack parent-command rewrite, ' +
      'Discord interaction events and inbound events, as the Hermes gateway reads and writes them.',
    cases,
    setup: () => ({ ctx: implementation, capabilities }),
    needs: {
      ...memberNeeds({ ...MEMBERS, ...FRAME_MEMBERS, ...MESSAGE_EVENT_MEMBERS }, 'RelayCodecImplementation'),
      ...FRAME_PYTHON_STYLE_NEED,
      ...PYTHON_NUMBER_NEED,
      ...messageEventDialectNeeds(cases.flatMap(requiredCapabilities)),
    },
  };
}
