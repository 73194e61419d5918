import signaturesFixture from '../../../fixtures/hearthnet/signatures.json' with { type: 'json' };
import { assertEqual, assertTrue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readBoolean,
  readBytes,
  readFixtureFile,
  readObject,
  readString,
  readStringArray,
} from '../../fixtures/fixture-file.js';
import type { CapabilityNeed, ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { NODE_ID_MEMBERS, type NodeIdImplementation, nodeIdCases } from './node-id-cases.js';
import { HEARTHNET_SIGNATURES_SUITE_VERSION, signaturesCaseSince } from './suite-version.js';

/** A detailed verification verdict; `reason` and `lossyNumbers` are checked when present. */
export interface VerifyVerdict {
  readonly valid: boolean;
  /** Why verification failed, as one of the fixture's reason codes. */
  readonly reason?: string;
  /** JSON paths of numbers not in canonical form. */
  readonly lossyNumbers?: readonly string[];
}

/** Options passed to every verify call. */
export interface VerifyOptions {
  /** Decode the signature (and node id) as the Python reference does, rather than as strict base64url. */
  readonly lenientEncoding: boolean;
}

/** The signing functions under test. `sign` and `verify` are required; the rest enable more cases. */
export interface SignatureImplementation extends NodeIdImplementation {
  /** Signs a JSON object with a 32-byte Ed25519 seed; returns the signed payload (with `signature`). */
  sign(
    payload: Record<string, unknown>,
    seed: Uint8Array,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Verifies `payload` against a 32-byte public key; `false`, a throw or `{ valid: false }` rejects it. */
  verify(
    payload: unknown,
    publicKey: Uint8Array,
    options: VerifyOptions,
  ): boolean | VerifyVerdict | Promise<boolean | VerifyVerdict>;
  /** Verifies against a full node id (`ed25519:<base64url>`). Capability `verify-node-id`. */
  verifyWithNodeId?(
    payload: unknown,
    nodeId: string,
    options: VerifyOptions,
  ): boolean | VerifyVerdict | Promise<boolean | VerifyVerdict>;
  /**
   * `true` when `verify`, `verifyWithNodeId` and `parseNodeId` honour the lenient (Python reference)
   * decoding; enables the `lenient` interop cases.
   */
  readonly lenientEncoding?: boolean;
}

const FIXTURE_NAME = 'hearthnet/signatures.json';
const SECTION = 'HearthNet §1.3';
const SUITE_NAME = 'hearthnet.signatures';
const fixture = readFixtureFile(signaturesFixture, FIXTURE_NAME);

/** The members of a SignatureImplementation that provide each capability (the lenient ones aside). */
const SIGNATURE_MEMBERS = {
  ...NODE_ID_MEMBERS,
  'verify-node-id': ['verifyWithNodeId'],
} as const satisfies CapabilityMembers<SignatureImplementation>;

/** The capabilities `lenientEncoding: true` declares, with the members they also need. */
const LENIENT_NEEDS = {
  'lenient-encoding': { provide: '`lenientEncoding: true` in the SignatureImplementation' },
  'verify-node-id-lenient': {
    provide: '`verifyWithNodeId` and `lenientEncoding: true` in the SignatureImplementation',
  },
  'parse-node-id-lenient': {
    provide: '`parseNodeId` and `lenientEncoding: true` in the SignatureImplementation',
  },
} as const satisfies Readonly<Record<string, CapabilityNeed>>;

/**
 * Ed25519 payload signatures from `fixtures/hearthnet/signatures.json`: deterministic signing with
 * number normalisation, verification verdicts (tampering, malformed signatures, the libsodium
 * acceptance rules, lossy numbers), and the node-id cases of `node-ids.json` when the implementation
 * offers `nodeId`, `shortNodeId` or `parseNodeId`.
 *
 * @example
 * ```ts
 * import { nodeIdFromPublicKey, signPayload, verifyPayload } from '@agentwire/hearthnet';
 * const suite = signatureSuite({
 *   sign: (payload, seed) => signPayload(payload, seed),
 *   verify: (payload, key, options) => verifyPayload(payload, key, options),
 *   nodeId: nodeIdFromPublicKey,
 * });
 * ```
 */
export function signatureSuite(
  implementation: SignatureImplementation,
): ConformanceSuite<SignatureImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, SIGNATURE_MEMBERS));
  if (implementation.lenientEncoding === true) {
    capabilities.add('lenient-encoding');
    if (implementation.verifyWithNodeId) capabilities.add('verify-node-id-lenient');
    if (implementation.parseNodeId) capabilities.add('parse-node-id-lenient');
  }
  return {
    name: SUITE_NAME,
    version: HEARTHNET_SIGNATURES_SUITE_VERSION,
    description: fixture.description,
    cases: [
      ...fixture.cases.map((entry, index) => caseFor(entry, `${FIXTURE_NAME} cases[${index}]`)),
      ...nodeIdCases<SignatureImplementation>(SUITE_NAME),
    ],
    setup: () => ({ ctx: implementation, capabilities }),
    needs: { ...memberNeeds(SIGNATURE_MEMBERS, 'SignatureImplementation'), ...LENIENT_NEEDS },
  };
}

function caseFor(entry: FixtureCase, location: string): ConformanceCase<SignatureImplementation> {
  const id = `${SUITE_NAME}.${entry.id}`;
  const common = { id, section: SECTION, since: signaturesCaseSince(entry.id) } as const;
  switch (entry['operation']) {
    case 'sign': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const payload = () =>
        readObject(decodeFixtureValue(entry['payload'], `${location}.payload`), `${location}.payload`);
      const signed = decodeFixtureValue(
        readObject(entry['signed'], `${location}.signed`),
        `${location}.signed`,
      );
      return {
        ...common,
        title: `signs ${entry.id} deterministically`,
        level: 'required',
        run: async (impl) => assertEqual(await impl.sign(payload(), seed), signed, 'signed payload'),
      };
    }
    case 'verify':
      return verifyCase(entry, location, common);
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected "sign" or "verify"');
  }
}

function verifyCase(
  entry: FixtureCase,
  location: string,
  common: Pick<ConformanceCase<SignatureImplementation>, 'id' | 'section' | 'since'>,
): ConformanceCase<SignatureImplementation> {
  const lenientEncoding = readBoolean(entry['lenient_encoding'], `${location}.lenient_encoding`);
  const valid = readBoolean(entry['valid'], `${location}.valid`);
  const reason = 'reason' in entry ? readString(entry['reason'], `${location}.reason`) : undefined;
  const lossyNumbers =
    'lossy_numbers' in entry
      ? readStringArray(entry['lossy_numbers'], `${location}.lossy_numbers`)
      : undefined;
  const payload = () => decodeFixtureValue(entry['payload'], `${location}.payload`);
  const byNodeId = 'node_id' in entry;
  const verify = byNodeId
    ? verifyByNodeId(readString(entry['node_id'], `${location}.node_id`))
    : verifyByPublicKey(readBytes(entry['public_key'], `${location}.public_key`));
  const requires = verifyCapability(byNodeId, lenientEncoding);
  const expectation = valid ? 'accepts' : `rejects (${reason ?? 'invalid'})`;
  return {
    ...common,
    title: `${lenientEncoding ? 'lenient' : 'strict'} verification ${expectation}: ${entry.id}`,
    level: lenientEncoding ? 'recommended' : 'required',
    ...(requires === undefined ? {} : { requires }),
    run: async (impl) => {
      const options = { lenientEncoding };
      let verdict: boolean | VerifyVerdict | undefined;
      try {
        verdict = await verify(impl, payload(), options);
      } catch (error) {
        // The Python reference raises instead of returning False; a throw counts as a rejection.
        assertTrue(
          !valid,
          `verification threw ${error instanceof Error ? `${error.name}: ${error.message}` : 'a non-error'} for a valid signature`,
        );
        return;
      }
      const detailed = typeof verdict === 'object' && verdict !== null ? verdict : undefined;
      assertEqual(detailed ? detailed.valid : verdict, valid, 'verification result');
      if (detailed?.reason !== undefined && reason !== undefined)
        assertEqual(detailed.reason, reason, 'reason');
      if (detailed && 'lossyNumbers' in detailed)
        assertEqual(detailed.lossyNumbers, lossyNumbers, 'lossy numbers');
    },
  };
}

type VerifyCall = (
  impl: SignatureImplementation,
  payload: unknown,
  options: VerifyOptions,
) => boolean | VerifyVerdict | undefined | Promise<boolean | VerifyVerdict>;

function verifyByNodeId(nodeId: string): VerifyCall {
  return (impl, payload, options) => impl.verifyWithNodeId?.(payload, nodeId, options);
}

function verifyByPublicKey(publicKey: Uint8Array): VerifyCall {
  return (impl, payload, options) => impl.verify(payload, publicKey, options);
}

/** The capability a verify case needs: none for strict verification against a public key. */
function verifyCapability(byNodeId: boolean, lenientEncoding: boolean): string | undefined {
  if (byNodeId) return lenientEncoding ? 'verify-node-id-lenient' : 'verify-node-id';
  return lenientEncoding ? 'lenient-encoding' : undefined;
}
