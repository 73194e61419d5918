import eventsFixture from '../../../fixtures/hearthnet/events.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
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
import type { ConformanceCase } from '../../suite.js';
import type { CapabilityMembers } from '../capability-members.js';
import { HEARTHNET_EVENT_LOG_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** The cases of `events.json` that `hearthnet.event-log` 1.1.0 added. */
const ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'ulid-monotonic-carry',
  'ulid-monotonic-carry-into-first-byte',
  'ulid-monotonic-time-beyond-48-bits',
  'ulid-monotonic-short-randomness',
  'verify-not-an-object',
  'verify-schema-version-string',
  'verify-event-id-25-characters',
  'verify-event-id-first-character-8',
  'verify-event-id-non-ascii',
  'verify-event-id-u0080',
  'verify-member-promoted-co-signed',
  'verify-data-promoted-without-level',
  'verify-data-co-signer-without-signature',
  'verify-data-policy-missing-field',
  'verify-data-policy-count-as-string',
  'verify-data-co-signature-prefixed',
  'verify-data-co-signature-suffixed',
  'verify-data-invitee-short-node-id',
  'verify-data-bare-hex-cid',
  'verify-data-unparsable-cid',
  'verify-event-id-first-character-7',
]);

/** An implementation's verdict on one signed event envelope. */
export type EventVerdict =
  | { readonly valid: true }
  | {
      readonly valid: false;
      /** The contract §9 code: `bad_request`, `schema_mismatch` or `invalid_signature`. */
      readonly code: string;
      /** The SDK's finer reason (checked by the `recommended` cases only). */
      readonly reason?: string;
    };

/** The envelope functions of contract §7.1–§7.4 an event-log implementation may offer; each enables its cases. */
export interface EventEnvelopeImplementation {
  /**
   * A ULID of `timeMs` whose 80 random bits are `randomness` (10 bytes): 26 Crockford base32
   * characters. Capability `ulid`.
   */
  encodeUlid?(timeMs: number, randomness: Uint8Array): string | Promise<string>;
  /**
   * A monotonic ULID source that reads `clock` once per id and calls `random` (for 10 bytes) only when
   * the time moved past the last id's; it throws `ulid_overflow` (as the error's `code`) when the
   * randomness cannot be incremented. Capability `ulid-factory`.
   */
  ulidFactory?(clock: () => number, random: () => Uint8Array): () => string;
  /**
   * The Lamport rules of §7.3: the value an event sent after `counter` gets (`counter + 1`) and the
   * counter after receiving an event of value `received` (`max(counter, received) + 1`). Capability
   * `lamport`.
   */
  readonly lamport?: {
    forSend(counter: number): number;
    afterReceive(counter: number, received: number): number;
  };
  /**
   * Signs the envelope fields of `unsigned` (event_id, lamport, wall_clock, community_id, event_type,
   * data; `author` is the key's node id) with the key of the 32-byte `seed` and returns the signed
   * envelope. Capability `sign-event`.
   */
  signEvent?(unsigned: Record<string, unknown>, seed: Uint8Array): unknown;
  /** Checks a received envelope's shape, data and signature. Capability `verify-event`. */
  verifyEvent?(event: unknown): EventVerdict | Promise<EventVerdict>;
  /** Sorts events into replay order (lamport, then event_id as a string). Capability `replay-order`. */
  sortForReplay?(events: readonly unknown[]): readonly unknown[] | Promise<readonly unknown[]>;
}

const FIXTURE_NAME = 'hearthnet/events.json';
const SECTION = 'HearthNet §7.1–§7.4';
const fixture = readFixtureFile(eventsFixture, FIXTURE_NAME);

/**
 * The fixture's `ulid-decode` cases are left out: `@agentwire/hearthnet` has no public ULID decoder to
 * run them against (its package tests keep them), and an envelope check reaches the same rules
 * through `verify-event`.
 */
const LEFT_OUT = new Set(['ulid-decode']);

/** The members of an EventEnvelopeImplementation that provide each capability. */
export const EVENT_ENVELOPE_MEMBERS = {
  ulid: ['encodeUlid'],
  'ulid-factory': ['ulidFactory'],
  lamport: ['lamport'],
  'sign-event': ['signEvent'],
  'verify-event': ['verifyEvent'],
  'replay-order': ['sortForReplay'],
} as const satisfies CapabilityMembers<EventEnvelopeImplementation>;

/** Cases from `fixtures/hearthnet/events.json`, with ids `<prefix>.events.<fixture id>[.reason]`. */
export function eventEnvelopeCases<Ctx extends EventEnvelopeImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return fixture.cases.flatMap((entry, index) =>
    LEFT_OUT.has(String(entry['operation']))
      ? []
      : casesFor<Ctx>(prefix, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function casesFor<Ctx extends EventEnvelopeImplementation>(
  prefix: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  const id = `${prefix}.events.${entry.id}`;
  const since = ADDED_IN_1_1.has(entry.id) ? HEARTHNET_EVENT_LOG_SUITE_VERSION : HEARTHNET_SUITE_VERSION;
  const common = { id, section: SECTION, level: 'required', since } as const;
  switch (entry['operation']) {
    case 'ulid-encode': {
      const timeMs = readNonNegativeInteger(entry['time_ms'], `${location}.time_ms`);
      const randomness = readBytes(entry['randomness'], `${location}.randomness`);
      const expected = readString(entry['expected'], `${location}.expected`);
      return [
        {
          ...common,
          title: `ULID of a time and randomness (${entry.id})`,
          requires: 'ulid',
          run: async (impl) => assertEqual(await impl.encodeUlid?.(timeMs, randomness), expected, 'ULID'),
        },
      ];
    }
    case 'ulid-monotonic':
      return [monotonicCase<Ctx>(entry, location, common)];
    case 'lamport':
      return [lamportCase<Ctx>(entry, location, common)];
    case 'sign-event': {
      const seed = readBytes(entry['seed'], `${location}.seed`);
      const unsigned = readObject(entry['unsigned'], `${location}.unsigned`);
      const expected = readObject(entry['expected'], `${location}.expected`);
      return [
        {
          ...common,
          title: `signs the envelope ${entry.id} deterministically`,
          requires: 'sign-event',
          run: async (impl) =>
            assertEqual(await impl.signEvent?.(structuredClone(unsigned), seed), expected, 'signed event'),
        },
      ];
    }
    case 'verify-event':
      return verifyCases<Ctx>(entry, location, common);
    case 'replay-order': {
      const events = entry['events'];
      if (!Array.isArray(events))
        throw invalidFixtureError(`${location}.events`, 'expected a list of events');
      const expected = readStringArray(entry['expected'], `${location}.expected`);
      return [
        {
          ...common,
          title: `replay order of ${entry.id}: lamport, then event_id`,
          requires: 'replay-order',
          run: async (impl) => {
            const sorted = (await impl.sortForReplay?.(structuredClone(events))) ?? [];
            assertEqual(
              sorted.map((event) => (event as { event_id?: unknown }).event_id),
              expected,
              'event ids in replay order',
            );
          },
        },
      ];
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected one of the events.json operations');
  }
}

type CommonFields = Pick<ConformanceCase<unknown>, 'id' | 'section' | 'level' | 'since'>;

function monotonicCase<Ctx extends EventEnvelopeImplementation>(
  entry: FixtureCase,
  location: string,
  common: CommonFields,
): ConformanceCase<Ctx> {
  const clockMs = entry['clock_ms'];
  const draws = entry['random_draws'];
  if (!Array.isArray(clockMs)) throw invalidFixtureError(`${location}.clock_ms`, 'expected a list of times');
  if (!Array.isArray(draws))
    throw invalidFixtureError(`${location}.random_draws`, 'expected a list of draws');
  const times = clockMs.map((time, i) => readNonNegativeInteger(time, `${location}.clock_ms[${i}]`));
  const randomDraws = draws.map((draw, i) => readBytes(draw, `${location}.random_draws[${i}]`));
  const expected = readStringArray(entry['expected'], `${location}.expected`);
  const error = 'error' in entry ? readString(entry['error'], `${location}.error`) : undefined;
  return {
    ...common,
    title: `monotonic ULIDs: ${entry.id}${error === undefined ? '' : ` (then ${error})`}`,
    requires: 'ulid-factory',
    run: async (impl) => {
      const clock = [...times];
      const random = [...randomDraws];
      const next = impl.ulidFactory?.(
        () => clock.shift() ?? Number.NaN,
        () => random.shift() ?? new Uint8Array(0),
      );
      assertEqual(
        expected.map(() => next?.()),
        expected,
        'ULIDs in order',
      );
      if (error !== undefined) {
        const thrown = await assertRejects(() => next?.(), `the next ULID must fail with ${error}`);
        assertEqual((thrown as { code?: unknown } | null)?.code, error, 'error code');
      }
      // After a refusal a factory may or may not have drawn for the refused id.
      if (error === undefined) assertEqual(random.length, 0, 'random draws left unused');
    },
  };
}

function lamportCase<Ctx extends EventEnvelopeImplementation>(
  entry: FixtureCase,
  location: string,
  common: CommonFields,
): ConformanceCase<Ctx> {
  const initial = readNonNegativeInteger(entry['initial'], `${location}.initial`);
  const steps = entry['steps'];
  if (!Array.isArray(steps)) throw invalidFixtureError(`${location}.steps`, 'expected a list of steps');
  const readStep = (value: unknown, i: number): { op: 'tick' } | { op: 'observe'; lamport: number } => {
    const step = readObject(value, `${location}.steps[${i}]`);
    if (step['op'] === 'tick') return { op: 'tick' };
    if (step['op'] === 'observe') {
      return {
        op: 'observe',
        lamport: readNonNegativeInteger(step['lamport'], `${location}.steps[${i}].lamport`),
      };
    }
    throw invalidFixtureError(`${location}.steps[${i}].op`, 'expected "tick" or "observe"');
  };
  const parsed = steps.map(readStep);
  const expected = entry['expected'];
  if (!Array.isArray(expected))
    throw invalidFixtureError(`${location}.expected`, 'expected a list of counters');
  return {
    ...common,
    title: `Lamport counter on send and receive (${entry.id})`,
    requires: 'lamport',
    run: async (impl) => {
      const rules = impl.lamport!;
      let counter = initial;
      const values = parsed.map((step) => {
        counter = step.op === 'tick' ? rules.forSend(counter) : rules.afterReceive(counter, step.lamport);
        return counter;
      });
      assertEqual(values, expected, 'counter after each step');
    },
  };
}

function verifyCases<Ctx extends EventEnvelopeImplementation>(
  entry: FixtureCase,
  location: string,
  common: CommonFields,
): ConformanceCase<Ctx>[] {
  const event = entry['event'];
  const verify = async (impl: Ctx) => (await impl.verifyEvent?.(structuredClone(event))) ?? { valid: true };
  if (!('error' in entry)) {
    return [
      {
        ...common,
        title: `accepts the event ${entry.id}`,
        requires: 'verify-event',
        run: async (impl) => assertEqual((await verify(impl)).valid, true, 'verdict'),
      },
    ];
  }
  const code = readString(entry['error'], `${location}.error`);
  const reason = readString(entry['reason'], `${location}.reason`);
  return [
    {
      ...common,
      title: `refuses the event ${entry.id} with ${code}`,
      requires: 'verify-event',
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
      title: `refuses the event ${entry.id} for the reason ${reason}`,
      requires: 'verify-event',
      run: async (impl) => {
        const verdict = await verify(impl);
        assertEqual(verdict.valid ? 'accepted' : verdict.reason, reason, 'refusal reason');
      },
    },
  ];
}
