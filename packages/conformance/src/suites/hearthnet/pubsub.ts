import pubsubTopicsFixture from '../../../fixtures/hearthnet/pubsub-topics.json' with { type: 'json' };
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readFixtureFile,
  readObject,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_PUBSUB_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** A topic's row of the contract §8 table, as `resolveTopic` reports it. */
export interface TopicFacts {
  /** `wire` or `local_only`. */
  readonly scope: string;
  /** `event_envelope`, `node_manifest`, `capability_descriptor`, `capability_ref` or `connectivity`. */
  readonly payload: string;
  readonly producer: string;
  /** Who may subscribe: `members`, `recipient`, `anchors` or `local_ui`. */
  readonly audience: string;
  /** The recipient's node id, for `chat.message.<recipient>`. */
  readonly recipient?: string;
}

/** The topic and payload an event of the log is published with. */
export interface TopicPublicationFacts {
  readonly topic: string;
  readonly payload: unknown;
}

/**
 * The pub-sub topic catalogue under test. Only `resolveTopic` and `errorCode` are required; each
 * other function enables its cases.
 */
export interface PubSubImplementation {
  /** The catalogue row of a concrete topic name; throws (code `unknown_topic`) for a name outside it. */
  resolveTopic(topic: string): TopicFacts | Promise<TopicFacts>;
  /**
   * Checks that a remote peer may subscribe to `topic` over the wire: returns for a wire topic, throws
   * with code `local_only_topic` for a local-only one and `unknown_topic` outside the catalogue.
   * Capability `wire-topic`.
   */
  checkWireTopic?(topic: string): void | Promise<void>;
  /**
   * The topic and payload `event` is published with, or `undefined` when it has none. Capability
   * `event-topic`; with `validatePayload` too, the topic must accept that payload.
   */
  topicForEvent?(
    event: unknown,
  ): TopicPublicationFacts | undefined | Promise<TopicPublicationFacts | undefined>;
  /** Checks a payload against its topic; throws with code `invalid_topic_payload`. Capability `payload`. */
  validatePayload?(topic: string, payload: unknown): void | Promise<void>;
  /** The stable code of a thrown error (`unknown_topic`, `local_only_topic`, `invalid_topic_payload`). */
  errorCode(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'hearthnet/pubsub-topics.json';
const SECTION = 'HearthNet §8';
const SECTION_EVENTS = 'HearthNet §7.2, §8';
const fixture = readFixtureFile(pubsubTopicsFixture, FIXTURE_NAME);

/** The members of a PubSubImplementation that provide each capability. */
const PUBSUB_MEMBERS = {
  'wire-topic': ['checkWireTopic'],
  'event-topic': ['topicForEvent'],
  payload: ['validatePayload'],
} as const satisfies CapabilityMembers<PubSubImplementation>;

/**
 * The pub-sub topics of contract §8 from `fixtures/hearthnet/pubsub-topics.json`: each topic's
 * scope, payload kind, producer and audience (and which topics may travel the wire: local-only ones
 * are refused, unknown names are refused), the topic each event type is published on, and payloads
 * each topic accepts or refuses.
 *
 * @example
 * ```ts
 * import { resolveTopic, resolveWireTopic, topicForEvent, validateTopicPayload } from '@agentwire/hearthnet/pubsub';
 * const report = await runSuite(pubsubSuite({
 *   resolveTopic: (topic) => { const { definition, recipient } = resolveTopic(topic); return { ...definition, ...(recipient ? { recipient } : {}) }; },
 *   checkWireTopic: (topic) => void resolveWireTopic(topic, 'subscribe to'),
 *   topicForEvent,
 *   validatePayload: (topic, payload) => void validateTopicPayload(topic, payload),
 *   errorCode: (error) => (error as { code?: string }).code,
 * }));
 * ```
 */
export function pubsubSuite(implementation: PubSubImplementation): ConformanceSuite<PubSubImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, PUBSUB_MEMBERS));
  return {
    name: 'hearthnet.pubsub',
    version: HEARTHNET_PUBSUB_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.flatMap(casesFor),
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(PUBSUB_MEMBERS, 'PubSubImplementation'),
  };
}

type PubSubCase = ConformanceCase<PubSubImplementation>;

function casesFor(entry: FixtureCase, index: number): PubSubCase[] {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const id = `hearthnet.pubsub.${entry.id}`;
  const since = sinceOf(entry, location, HEARTHNET_SUITE_VERSION);
  const common = { level: 'required', since } as const;
  switch (entry['operation']) {
    case 'resolve_topic': {
      const topic = readString(entry['topic'], `${location}.topic`);
      if (entry['error'] !== undefined) {
        const code = readString(entry['error'], `${location}.error`);
        return [
          {
            ...common,
            id,
            title: `${JSON.stringify(topic)} is not a topic`,
            section: SECTION,
            run: (impl) => expectError(impl, () => impl.resolveTopic(topic), code, `resolving ${topic}`),
          },
          {
            ...common,
            id: `${id}.wire`,
            title: `${JSON.stringify(topic)} cannot be subscribed to over the wire`,
            section: SECTION,
            requires: 'wire-topic',
            run: (impl) =>
              expectError(impl, () => impl.checkWireTopic?.(topic), code, `subscribing to ${topic}`),
          },
        ];
      }
      const expected = readObject(entry['expected'], `${location}.expected`);
      const scope = readString(expected['scope'], `${location}.expected.scope`);
      return [
        {
          ...common,
          id,
          title: `the catalogue row of ${topic}`,
          section: SECTION,
          run: async (impl) => assertEqual(plainFacts(await impl.resolveTopic(topic)), expected, topic),
        },
        {
          ...common,
          id: `${id}.wire`,
          title:
            scope === 'local_only'
              ? `${topic} is local-only: subscribing over the wire is refused`
              : `${topic} may be subscribed to over the wire`,
          section: SECTION,
          requires: 'wire-topic',
          run: async (impl) => {
            if (scope === 'local_only') {
              await expectError(impl, () => impl.checkWireTopic?.(topic), 'local_only_topic', topic);
              return;
            }
            try {
              await impl.checkWireTopic?.(topic);
            } catch (error) {
              fail(`${topic} is a wire topic, but was refused: ${describe(impl, error)}`, error);
            }
          },
        },
      ];
    }
    case 'event_topic': {
      const event = readObject(entry['event'], `${location}.event`);
      const expected =
        entry['expected'] === null ? null : readObject(entry['expected'], `${location}.expected`);
      const topic = expected === null ? null : readString(expected['topic'], `${location}.expected.topic`);
      const payloadPart = expected === null ? null : expected['payload'];
      if (payloadPart !== null && payloadPart !== 'event' && payloadPart !== 'data.manifest') {
        throw invalidFixtureError(`${location}.expected.payload`, 'expected "event" or "data.manifest"');
      }
      return [
        {
          ...common,
          id,
          title:
            topic === null
              ? `a ${String(event['event_type'])} event is not published`
              : `a ${String(event['event_type'])} event is published on ${topic}, with a payload it accepts`,
          section: SECTION_EVENTS,
          requires: 'event-topic',
          run: async (impl) => {
            const publication = await impl.topicForEvent?.(event);
            if (topic === null) {
              assertEqual(publication, undefined, `the publication of ${String(event['event_type'])}`);
              return;
            }
            assertTrue(publication !== undefined, `${String(event['event_type'])} is not published`);
            assertEqual(publication.topic, topic, 'topic');
            const payload =
              payloadPart === 'event'
                ? event
                : readObject(event['data'], `${location}.event.data`)['manifest'];
            assertEqual(publication.payload, payload, `payload (${String(payloadPart)})`);
            // What the mapping publishes must be a payload its own topic accepts.
            if (impl.validatePayload !== undefined) {
              try {
                await impl.validatePayload(publication.topic, publication.payload);
              } catch (error) {
                fail(
                  `${topic} refuses the payload its event is published with: ${describe(impl, error)}`,
                  error,
                );
              }
            }
          },
        },
      ];
    }
    case 'validate_payload': {
      const topic = readString(entry['topic'], `${location}.topic`);
      const payload = entry['payload'];
      if (entry['error'] !== undefined) {
        const code = readString(entry['error'], `${location}.error`);
        return [
          {
            ...common,
            id,
            title: `${topic} refuses the payload ${entry.id.replace(/^payload-/, '')}`,
            section: SECTION,
            requires: 'payload',
            run: (impl) =>
              expectError(impl, () => impl.validatePayload?.(topic, payload), code, `a payload of ${topic}`),
          },
        ];
      }
      return [
        {
          ...common,
          id,
          title: `${topic} accepts the payload ${entry.id.replace(/^payload-/, '')}`,
          section: SECTION,
          requires: 'payload',
          run: async (impl) => {
            try {
              await impl.validatePayload?.(topic, payload);
            } catch (error) {
              fail(`a valid payload of ${topic} was refused: ${describe(impl, error)}`, error);
            }
          },
        },
      ];
    }
    default:
      throw invalidFixtureError(
        `${location}.operation`,
        'expected "resolve_topic", "event_topic" or "validate_payload"',
      );
  }
}

async function expectError(
  impl: PubSubImplementation,
  action: () => unknown,
  code: string,
  what: string,
): Promise<void> {
  let result: unknown;
  try {
    result = await action();
  } catch (error) {
    assertEqual(impl.errorCode(error), code, `the error code of ${what} (${describe(impl, error)})`);
    return;
  }
  fail(`${what} succeeded (${JSON.stringify(result) ?? 'no result'}); expected an error with code ${code}`);
}

/** Only the documented fields, so extra properties of an implementation's row do not fail the case. */
function plainFacts(facts: TopicFacts): unknown {
  if (facts === null || typeof facts !== 'object') return facts;
  const { scope, payload, producer, audience, recipient } = facts;
  return { scope, payload, producer, audience, ...(recipient === undefined ? {} : { recipient }) };
}

function describe(impl: PubSubImplementation, error: unknown): string {
  const code = impl.errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? message : `${code}: ${message}`;
}
