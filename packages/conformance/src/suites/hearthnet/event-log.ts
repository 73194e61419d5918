import replayFixture from '../../../fixtures/hearthnet/replay.json' with { type: 'json' };
import { assertEqual } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBytes,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readString,
  readStringArray,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import {
  EVENT_ENVELOPE_MEMBERS,
  type EventEnvelopeImplementation,
  eventEnvelopeCases,
} from './event-log-events.js';
import type { EventLogRejection } from './event-log-sync.js';
import { SYNC_MEMBERS, type SyncImplementation, syncCases } from './event-log-sync.js';
import { HEARTHNET_EVENT_LOG_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** What an implementation's replay reports. */
export interface EventLogReplayResult {
  /** Applied event ids, in replay order. */
  readonly applied: readonly string[];
  /** Refused events, in any order. */
  readonly rejected: readonly EventLogRejection[];
  readonly views: { readonly membership: unknown; readonly marketplace: unknown; readonly chat: unknown };
}

/** A verdict on a community manifest checked against the log. */
export interface CommunityManifestVerdict {
  readonly valid: boolean;
  /** The node id whose signature verified; checked when present. */
  readonly signer?: string;
}

/**
 * The event-log functions under test. `replay` is required; each other one (the envelope functions of
 * `EventEnvelopeImplementation` and the sync functions of `SyncImplementation` included)
 * enables its cases.
 */
export interface EventLogImplementation extends EventEnvelopeImplementation, SyncImplementation {
  /** Replays `events` of the community `communityId`, judging post TTLs at `now` (ms since the epoch). */
  replay(
    events: readonly unknown[],
    options: { readonly communityId: string; readonly now: number },
  ): EventLogReplayResult | Promise<EventLogReplayResult>;
  /** `blake3:` + hex BLAKE3 of a view's canonical JSON. Capability `view-hash`. */
  viewHash?(view: unknown): string | Promise<string>;
  /**
   * Derives and signs the community manifest at `headLamport` (all events when undefined) with the
   * key of the 32-byte `seed`. Capability `community-manifest`.
   */
  buildCommunityManifest?(
    events: readonly unknown[],
    seed: Uint8Array,
    options: { readonly communityId: string; readonly headLamport?: number },
  ): unknown;
  /**
   * Checks a signed community manifest against `events`: replaying them up to its `head_lamport` gives
   * its contents, and it is signed by the root key or an anchor. Capability `verify-community-manifest`.
   */
  verifyCommunityManifest?(
    manifest: unknown,
    events: readonly unknown[],
  ): CommunityManifestVerdict | Promise<CommunityManifestVerdict>;
}

const SUITE_NAME = 'hearthnet.event-log';
const FIXTURE_NAME = 'hearthnet/replay.json';
const SECTION = 'HearthNet §7.2, §7.4';
const SECTION_MANIFEST = 'HearthNet §6.2';
const fixture = readFixtureFile(replayFixture, FIXTURE_NAME);

/** The members of an EventLogImplementation that provide each capability. */
const EVENT_LOG_MEMBERS = {
  'view-hash': ['viewHash'],
  'community-manifest': ['buildCommunityManifest'],
  'verify-community-manifest': ['verifyCommunityManifest'],
  ...EVENT_ENVELOPE_MEMBERS,
  ...SYNC_MEMBERS,
} as const satisfies CapabilityMembers<EventLogImplementation>;

/**
 * The community event log (contract §6.2, §7): replay of signed community logs into views, with the
 * trust rules, view hashes and derived community manifests, from `fixtures/hearthnet/replay.json`;
 * with the optional functions, the envelope cases of `events.json` (ULIDs, Lamport counters, signing,
 * verification, replay order) and the gossip-sync cases of `sync.json` (pushes, bucket digests).
 *
 * @example
 * ```ts
 * import { buildCommunityManifest, replay, viewHash } from '@agentwire/hearthnet/replay';
 * import { keyPairFromSeed } from '@agentwire/hearthnet';
 * const report = await runSuite(
 *   eventLogSuite({
 *     replay: (events, options) => replay(events, options),
 *     viewHash,
 *     buildCommunityManifest: (events, seed, options) => buildCommunityManifest(events, keyPairFromSeed(seed), options),
 *   }),
 * );
 * ```
 */
export function eventLogSuite(
  implementation: EventLogImplementation,
): ConformanceSuite<EventLogImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, EVENT_LOG_MEMBERS));
  return {
    name: SUITE_NAME,
    version: HEARTHNET_EVENT_LOG_SUITE_VERSION,
    description:
      'HearthNet community event log: signed envelopes, ULIDs and Lamport counters (events.json), replay ' +
      'into views with the trust rules, view hashes and community manifests (replay.json), and gossip-sync ' +
      'pushes and bucket digests (sync.json).',
    cases: [
      ...fixture.cases.flatMap(casesFor),
      ...eventEnvelopeCases<EventLogImplementation>(SUITE_NAME),
      ...syncCases<EventLogImplementation>(SUITE_NAME),
    ],
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(EVENT_LOG_MEMBERS, 'EventLogImplementation'),
  };
}

type EventLogCase = ConformanceCase<EventLogImplementation>;

const byIdThenCode = (a: readonly string[], b: readonly string[]) => {
  const left = a.join('\u0000');
  const right = b.join('\u0000');
  return left < right ? -1 : left > right ? 1 : 0;
};

function casesFor(entry: FixtureCase, index: number): EventLogCase[] {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const id = `${SUITE_NAME}.${entry.id}`;
  const common = { level: 'required', since: HEARTHNET_SUITE_VERSION } as const;
  const communityId = readString(entry['community_id'], `${location}.community_id`);
  const events = entry['events'];
  if (!Array.isArray(events)) throw invalidFixtureError(`${location}.events`, 'expected an array of events');
  const expected = readObject(entry['expected'], `${location}.expected`);
  switch (entry['operation']) {
    case 'replay': {
      const now = readNonNegativeInteger(entry['now_ms'], `${location}.now_ms`);
      const applied = readStringArray(expected['applied'], `${location}.expected.applied`);
      const rejected = readRejections(expected['rejected'], `${location}.expected.rejected`);
      const views = readObject(expected['views'], `${location}.expected.views`);
      const hashes = readObject(expected['view_hashes'], `${location}.expected.view_hashes`);
      const run = (impl: EventLogImplementation) =>
        impl.replay(structuredClone(events), { communityId, now });
      return [
        {
          ...common,
          id,
          title: `replay of ${entry.id}: applied events, refused events with their §9 codes, views`,
          section: SECTION,
          run: async (impl) => {
            const result = await run(impl);
            assertEqual(result.applied, applied, 'applied event ids in replay order');
            const codes = result.rejected.map((r) => [r.event_id ?? '', r.code]).sort(byIdThenCode);
            const expectedCodes = rejected.map(([eventId, , code]) => [eventId, code]).sort(byIdThenCode);
            assertEqual(codes, expectedCodes, 'refused event ids and codes');
            assertEqual(result.views, views, 'views');
          },
        },
        {
          ...common,
          level: 'recommended',
          id: `${id}.reasons`,
          title: `replay of ${entry.id}: the SDK's finer refusal reasons`,
          section: SECTION,
          run: async (impl) => {
            const reasons = (await run(impl)).rejected.map((r) => [r.event_id ?? '', r.reason ?? '', r.code]);
            assertEqual(reasons.sort(byIdThenCode), [...rejected].sort(byIdThenCode), 'refusal reasons');
          },
        },
        {
          ...common,
          id: `${id}.view-hashes`,
          title: `view hashes of ${entry.id}`,
          section: SECTION,
          requires: 'view-hash',
          run: async (impl) => {
            const result = await run(impl);
            for (const name of ['membership', 'marketplace', 'chat'] as const) {
              assertEqual(
                await impl.viewHash?.(result.views[name]),
                hashes[name],
                `hash of the ${name} view`,
              );
            }
          },
        },
      ];
    }
    case 'community-manifest': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const head = entry['head_lamport'];
      const headLamport =
        head === null ? undefined : readNonNegativeInteger(head, `${location}.head_lamport`);
      return [
        {
          ...common,
          id,
          title: `community manifest derived from the log (${entry.id})`,
          section: SECTION_MANIFEST,
          requires: 'community-manifest',
          run: async (impl) => {
            const manifest = await impl.buildCommunityManifest?.(structuredClone(events), seed, {
              communityId,
              ...(headLamport === undefined ? {} : { headLamport }),
            });
            assertEqual(manifest, expected, 'signed community manifest');
          },
        },
        {
          ...common,
          id: `${id}.verify`,
          title: `community manifest ${entry.id} verifies against the log, signed by the root key`,
          section: SECTION_MANIFEST,
          requires: 'verify-community-manifest',
          run: async (impl) => {
            const verdict = await impl.verifyCommunityManifest?.(
              structuredClone(expected),
              structuredClone(events),
            );
            assertEqual(verdict?.valid, true, 'verdict');
            // The fixture's seed is the community root's, so a verifier that names the signer names it.
            if (verdict?.signer !== undefined) assertEqual(verdict.signer, expected['root_key'], 'signer');
          },
        },
      ];
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected "replay" or "community-manifest"');
  }
}

function readRejections(value: unknown, location: string): [string, string, string][] {
  if (!Array.isArray(value))
    throw invalidFixtureError(location, 'expected a list of [event_id, reason, code]');
  return value.map((item, i) => {
    if (!Array.isArray(item) || item.length !== 3 || !item.every((part) => typeof part === 'string')) {
      throw invalidFixtureError(`${location}[${i}]`, 'expected [event_id, reason, code]');
    }
    return item as [string, string, string];
  });
}
