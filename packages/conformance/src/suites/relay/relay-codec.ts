import type { ConformanceSuite } from '../../suite.js';
import {
  type DescriptorImplementation,
  descriptorCapabilities,
  descriptorCases,
} from './descriptor-cases.js';
import { type FrameCodecImplementation, frameCapabilities, frameCases } from './frame-cases.js';
import {
  type PassthroughImplementation,
  passthroughCapabilities,
  passthroughCases,
} from './passthrough-cases.js';
import {
  type SessionSourceFromDictImplementation,
  type SessionSourceImplementation,
  sessionSourceCapabilities,
  sessionSourceCases,
  sessionSourceFromDictCapabilities,
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
    PassthroughImplementation {
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const SUITE_NAME = 'relay.codec';

/**
 * What goes on the relay wire, from four fixture files: CapabilityDescriptor parsing with the
 * gateway's `from_json` rules (`fixtures/relay/descriptors.json`, ids `relay.codec.descriptors.*`),
 * SessionSource to and from the wire with key order (`session-source.json`, `relay.codec.session-source.*`),
 * the gateway's persistence reader `from_dict()` (`session-source-from-dict.json`,
 * `relay.codec.session-source-from-dict.*`, recommended since 1.1.0),
 * frame decoding, encoding and streaming under arbitrary chunking (`frames.json`, `relay.codec.frames.*`),
 * and passthrough bodies, headers, prompt callback tokens and connector URLs (`passthrough.json`,
 * `relay.codec.passthrough.*`). Cases tagged `sdk` or `stricter-than-reference` are `recommended`.
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
    ...descriptorCapabilities(implementation),
    ...sessionSourceCapabilities(implementation),
    ...sessionSourceFromDictCapabilities(implementation),
    ...frameCapabilities(implementation),
    ...passthroughCapabilities(implementation),
  ]);
  return {
    name: SUITE_NAME,
    version: RELAY_CODEC_SUITE_VERSION,
    description:
      'The relay wire codecs: CapabilityDescriptor parsing, SessionSource to and from the wire and from ' +
      'storage (from_dict), NDJSON ' +
      'frame decoding, encoding and streaming, and the passthrough plane (bodies, headers, prompt ' +
      'callback tokens, connector URLs), as the Hermes gateway reads and writes them.',
    cases: [
      ...descriptorCases<RelayCodecImplementation>(SUITE_NAME),
      ...sessionSourceCases<RelayCodecImplementation>(SUITE_NAME),
      ...sessionSourceFromDictCases<RelayCodecImplementation>(SUITE_NAME),
      ...frameCases<RelayCodecImplementation>(SUITE_NAME),
      ...passthroughCases<RelayCodecImplementation>(SUITE_NAME),
    ],
    setup: () => ({ ctx: implementation, capabilities }),
  };
}
