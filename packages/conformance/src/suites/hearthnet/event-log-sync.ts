import syncFixture from '../../../fixtures/hearthnet/sync.json' with { type: 'json' };
import { assertEqual } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readFixtureFile,
  readObject,
  readPositiveInteger,
  readString,
  readStringArray,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import type { CapabilityMembers } from '../capability-members.js';
import { HEARTHNET_EVENT_LOG_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** What a node answers to one `POST /sync/v1/events` push, and what it holds afterwards. */
export interface SyncIngestResult {
  /** Ids of pushed events now stored, in any order. */
  readonly accepted: readonly string[];
  /** Pushed events refused, in any order. */
  readonly rejected: readonly EventLogRejection[];
  /** The highest stored Lamport value afterwards, `null` when the community has no events. */
  readonly new_head_lamport: number | null;
  /** How many events the node's store holds afterwards, all communities together. */
  readonly stored: number;
}

/** The gossip-sync functions of contract §7.6 an event-log implementation may offer; each enables its cases. */
export interface SyncImplementation {
  /**
   * Starts a node whose store holds `stored` (events appended as they are, already trusted) and
   * answers one push of `pushed` to the community `communityId`. Capability `sync-ingest`.
   */
  syncIngest?(
    stored: readonly unknown[],
    communityId: string,
    pushed: readonly unknown[],
  ): SyncIngestResult | Promise<SyncIngestResult>;
  /**
   * The answer of `POST /sync/v1/digests {community_id, bucket_width}` from a node whose store holds
   * `events`. Capability `sync-digests`.
   */
  syncDigests?(events: readonly unknown[], communityId: string, bucketWidth: number): unknown;
}

const FIXTURE_NAME = 'hearthnet/sync.json';
const SECTION = 'HearthNet §7.6';
const fixture = readFixtureFile(syncFixture, FIXTURE_NAME);
/** The cases of `sync.json` that `hearthnet.event-log` 1.1.0 added (from `tools/sync-edges.py`). */
const ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'push-to-other-community',
  'known-events-pushed-again',
  'different-event-under-stored-id',
]);

/** The members of a SyncImplementation that provide each capability. */
export const SYNC_MEMBERS = {
  'sync-ingest': ['syncIngest'],
  'sync-digests': ['syncDigests'],
} as const satisfies CapabilityMembers<SyncImplementation>;

/** Cases from `fixtures/hearthnet/sync.json`, with ids `<prefix>.sync.<fixture id>[.reasons]`. */
export function syncCases<Ctx extends SyncImplementation>(prefix: string): ConformanceCase<Ctx>[] {
  return fixture.cases.flatMap((entry, index) =>
    casesFor<Ctx>(prefix, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

const byText = (a: readonly unknown[], b: readonly unknown[]) => {
  const left = JSON.stringify(a);
  const right = JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
};

function casesFor<Ctx extends SyncImplementation>(
  prefix: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  const id = `${prefix}.sync.${entry.id}`;
  const since = ADDED_IN_1_1.has(entry.id) ? HEARTHNET_EVENT_LOG_SUITE_VERSION : HEARTHNET_SUITE_VERSION;
  const common = { id, section: SECTION, level: 'required', since } as const;
  const communityId = readString(entry['community_id'], `${location}.community_id`);
  const list = (field: string): unknown[] => {
    const value = entry[field];
    if (!Array.isArray(value)) throw invalidFixtureError(`${location}.${field}`, 'expected a list of events');
    return value;
  };
  switch (entry['operation']) {
    case 'ingest': {
      const stored = list('stored');
      const pushed = list('pushed');
      const expected = readObject(entry['expected'], `${location}.expected`);
      const accepted = readStringArray(expected['accepted'], `${location}.expected.accepted`);
      const rejected = readRejections(expected['rejected'], `${location}.expected.rejected`);
      const head = expected['new_head_lamport'];
      if (head !== null && typeof head !== 'number') {
        throw invalidFixtureError(`${location}.expected.new_head_lamport`, 'expected a number or null');
      }
      const push = async (impl: Ctx) =>
        (await impl.syncIngest?.(structuredClone(stored), communityId, structuredClone(pushed))) as
          | SyncIngestResult
          | undefined;
      return [
        {
          ...common,
          title: `a push of ${entry.id}: accepted events, refused events with their §9 codes, the new head`,
          requires: 'sync-ingest',
          run: async (impl) => {
            const result = await push(impl);
            assertEqual([...(result?.accepted ?? [])].sort(), accepted, 'accepted event ids');
            assertEqual(
              (result?.rejected ?? []).map((r) => [r.event_id, r.code]).sort(byText),
              rejected.map(([eventId, , code]) => [eventId, code]).sort(byText),
              'refused event ids and codes',
            );
            assertEqual(result?.new_head_lamport, head, 'new head lamport');
            // What was stored, and every accepted id (an identical event pushed again is accepted too).
            const storedIds = new Set([...stored.map(eventIdOf), ...accepted]);
            assertEqual(result?.stored, storedIds.size, 'events stored afterwards');
          },
        },
        {
          ...common,
          id: `${id}.reasons`,
          level: 'recommended',
          title: `a push of ${entry.id}: the SDK's finer refusal reasons`,
          requires: 'sync-ingest',
          run: async (impl) => {
            const result = await push(impl);
            assertEqual(
              (result?.rejected ?? []).map((r) => [r.event_id, r.reason ?? '', r.code]).sort(byText),
              [...rejected].sort(byText),
              'refusal reasons',
            );
          },
        },
      ];
    }
    case 'digests': {
      const events = list('events');
      const bucketWidth = readPositiveInteger(entry['bucket_width'], `${location}.bucket_width`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      return [
        {
          ...common,
          title: `Lamport-bucket digests of ${entry.id}`,
          requires: 'sync-digests',
          run: async (impl) =>
            assertEqual(
              await impl.syncDigests?.(structuredClone(events), communityId, bucketWidth),
              expected,
              'digests',
            ),
        },
      ];
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected "ingest" or "digests"');
  }
}

function readRejections(value: unknown, location: string): [string | null, string, string][] {
  if (!Array.isArray(value))
    throw invalidFixtureError(location, 'expected a list of [event_id, reason, code]');
  return value.map((item, i) => {
    const valid =
      Array.isArray(item) &&
      item.length === 3 &&
      (item[0] === null || typeof item[0] === 'string') &&
      typeof item[1] === 'string' &&
      typeof item[2] === 'string';
    if (!valid) throw invalidFixtureError(`${location}[${i}]`, 'expected [event_id | null, reason, code]');
    return item as [string | null, string, string];
  });
}

/** A refused event as an implementation reports it. */
export interface EventLogRejection {
  readonly event_id: string | null;
  /** The implementation's finer reason (checked by the `recommended` cases only). */
  readonly reason?: string;
  /** The contract §9 code. */
  readonly code: string;
}

function eventIdOf(event: unknown): unknown {
  return (event as { event_id?: unknown } | null)?.event_id;
}
