import nodeManifestsFixture from '../../../fixtures/hearthnet/node-manifests.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBytes,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_MANIFESTS_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** An implementation's verdict on a node manifest; `reason` is checked by the `recommended` cases only. */
export type ManifestVerdict =
  | { readonly valid: true }
  | {
      readonly valid: false;
      /** The contract §9 code: `bad_request`, `schema_mismatch`, `invalid_signature` or `expired`. */
      readonly code: string;
      /** The SDK's finer reason, e.g. `invalid_lifetime` or `pinned_key_mismatch`. */
      readonly reason?: string;
    };

/** What every verify call gets. */
export interface ManifestVerifyOptions {
  /** The time to judge expiry at, in milliseconds since the epoch. */
  readonly now: number;
  /** Keys pinned before the manifest arrives: node id → 32-byte Ed25519 public key. */
  readonly pins: ReadonlyMap<string, Uint8Array>;
}

/** The node-manifest functions under test. `verify` is required; `build` enables its cases. */
export interface ManifestImplementation {
  /** Judges a manifest received from a peer with every rule of contract §6.1, key pinning included. */
  verify(manifest: unknown, options: ManifestVerifyOptions): ManifestVerdict | Promise<ManifestVerdict>;
  /**
   * Builds and signs a manifest from `input` with the key of the 32-byte `seed`, issued at `now`
   * (milliseconds since the epoch); throws (or rejects) for input that breaks the §6.1 shape.
   * Capability `build`.
   */
  build?(input: Record<string, unknown>, seed: Uint8Array, options: { readonly now: number }): unknown;
  /**
   * Judges a manifest as `verify` does: resolves to the manifest it accepts, and throws (or rejects)
   * for one it refuses, with the §9 code as the error's `code` — the form a caller that stores the
   * manifest on success uses. Capability `accept`.
   */
  accept?(manifest: unknown, options: ManifestVerifyOptions): unknown;
}

const FIXTURE_NAME = 'hearthnet/node-manifests.json';
const SECTION = 'HearthNet §6.1';
const SUITE_NAME = 'hearthnet.manifests';
const fixture = readFixtureFile(nodeManifestsFixture, FIXTURE_NAME);

/** The members of a ManifestImplementation that provide each capability. */
const MANIFEST_MEMBERS = {
  build: ['build'],
  accept: ['accept'],
} as const satisfies CapabilityMembers<ManifestImplementation>;

/**
 * Node manifests (contract §6.1) from `fixtures/hearthnet/node-manifests.json`: deterministic build and
 * sign, and verification with every rule — shape, versions, the exact 30 s lifetime, the signature
 * under `node_id`, expiry on `[issued_at, expires_at)` and pinned keys — each refusal with its §9 code
 * (and, as `recommended` cases, the finer reason), and with `accept` the same refusals thrown.
 *
 * @example
 * ```ts
 * import { keyPairFromSeed } from '@agentwire/hearthnet';
 * import { buildNodeManifest, InMemoryPinStore, NodeManifestVerifier } from '@agentwire/hearthnet/manifests';
 * const report = await runSuite(
 *   manifestSuite({
 *     verify: (manifest, { now, pins }) =>
 *       new NodeManifestVerifier({ pinStore: new InMemoryPinStore(pins), clock: () => now }).verify(manifest),
 *     build: (input, seed, { now }) => buildNodeManifest(input as NodeManifestInput, keyPairFromSeed(seed), { now }),
 *   }),
 * );
 * ```
 */
export function manifestSuite(
  implementation: ManifestImplementation,
): ConformanceSuite<ManifestImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, MANIFEST_MEMBERS));
  return {
    name: SUITE_NAME,
    version: HEARTHNET_MANIFESTS_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.flatMap(casesFor),
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(MANIFEST_MEMBERS, 'ManifestImplementation'),
  };
}

type ManifestCase = ConformanceCase<ManifestImplementation>;

function casesFor(entry: FixtureCase, index: number): ManifestCase[] {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const id = `${SUITE_NAME}.${entry.id}`;
  const since = sinceOf(entry, location, HEARTHNET_SUITE_VERSION);
  const common = { id, section: SECTION, level: 'required', since } as const;
  const now = readNonNegativeInteger(entry['now_ms'], `${location}.now_ms`);
  switch (entry['operation']) {
    case 'build': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const input = readObject(entry['input'], `${location}.input`);
      if ('error' in entry) {
        return [
          {
            ...common,
            title: `refuses to build ${entry.id}`,
            requires: 'build',
            run: async (impl) => {
              await assertRejects(
                async () => impl.build?.(structuredClone(input), seed, { now }),
                `build must refuse ${entry.id}: no manifest may be made of it`,
              );
            },
          },
        ];
      }
      const expected = readObject(entry['expected'], `${location}.expected`);
      return [
        {
          ...common,
          title: `builds and signs ${entry.id} deterministically`,
          requires: 'build',
          run: async (impl) =>
            assertEqual(
              await impl.build?.(structuredClone(input), seed, { now }),
              expected,
              'signed manifest',
            ),
        },
      ];
    }
    case 'verify':
      return verifyCases(entry, location, now, common);
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected "build" or "verify"');
  }
}

function verifyCases(
  entry: FixtureCase,
  location: string,
  now: number,
  common: Pick<ManifestCase, 'id' | 'section' | 'level' | 'since'>,
): ManifestCase[] {
  const manifest = readObject(entry['manifest'], `${location}.manifest`);
  const pins = readPins(entry['pins'] ?? [], `${location}.pins`);
  const options = () => ({ now, pins: new Map(pins) });
  const verify = (impl: ManifestImplementation) => impl.verify(structuredClone(manifest), options());
  if (!('error' in entry)) {
    return [
      {
        ...common,
        title: `accepts ${entry.id}`,
        run: async (impl) => assertEqual((await verify(impl)).valid, true, 'verdict'),
      },
      {
        ...common,
        id: `${common.id}.accept`,
        since: HEARTHNET_MANIFESTS_SUITE_VERSION,
        title: `accept resolves to ${entry.id}`,
        requires: 'accept',
        run: async (impl) =>
          assertEqual(
            await impl.accept?.(structuredClone(manifest), options()),
            manifest,
            'accepted manifest',
          ),
      },
    ];
  }
  const code = readString(entry['error'], `${location}.error`);
  const reason = readString(entry['reason'], `${location}.reason`);
  return [
    {
      ...common,
      title: `refuses ${entry.id} with ${code}`,
      run: async (impl) => {
        const verdict = await verify(impl);
        assertEqual(verdict.valid ? { valid: true } : { valid: false, code: verdict.code }, {
          valid: false,
          code,
        });
      },
    },
    {
      ...common,
      id: `${common.id}.reason`,
      level: 'recommended',
      title: `refuses ${entry.id} for the reason ${reason}`,
      run: async (impl) => {
        const verdict = await verify(impl);
        assertEqual(verdict.valid ? 'accepted' : verdict.reason, reason, 'refusal reason');
      },
    },
    {
      ...common,
      id: `${common.id}.accept`,
      title: `accept throws ${code} for ${entry.id}`,
      requires: 'accept',
      run: async (impl) => {
        const error = await assertRejects(
          async () => impl.accept?.(structuredClone(manifest), options()),
          `accept must refuse ${entry.id}`,
        );
        assertEqual((error as { code?: unknown } | null)?.code, code, 'error code');
      },
    },
  ];
}

function readPins(value: unknown, location: string): [string, Uint8Array][] {
  if (!Array.isArray(value)) throw invalidFixtureError(location, 'expected a list of pins');
  return value.map((item, i) => {
    const pin = readObject(item, `${location}[${i}]`);
    return [
      readString(pin['node_id'], `${location}[${i}].node_id`),
      readBytes(pin['public_key'], `${location}[${i}].public_key`),
    ];
  });
}
