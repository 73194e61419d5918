import { encodeBase64 } from '@agentwire/internal';
import interactionsFixture from '../../../fixtures/relay/discord-interaction-events.json' with {
  type: 'json',
};
import inboundEventsFixture from '../../../fixtures/relay/inbound-events.json' with { type: 'json' };
import slackFixture from '../../../fixtures/relay/slack-parent-commands.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readFixtureFile,
  readObject,
  readString,
} from '../../fixtures/fixture-file.js';
import type { CapabilityNeed, ConformanceCase } from '../../suite.js';
import { type CapabilityMembers, providedCapabilities } from '../capability-members.js';
import { levelForTags } from './case-level.js';
import { BASELINE_SESSION_KEY_DIALECT, type SessionKeyOptions } from './session-keys.js';
import { assertOrderedEqual } from './session-source-cases.js';
import { DESCRIPTOR_VIEWS_AND_EVENTS_SINCE, INBOUND_EVENTS_SINCE } from './suite-version.js';

/** An inbound event's text and message type, by their wire names. */
export interface EventText {
  readonly text: string;
  readonly message_type: string;
}

/** A `passthrough_forward` frame's `forward` carrying a Discord interaction. */
export interface DiscordInteractionForward {
  readonly platform: 'discord';
  /** The interaction JSON text as UTF-8, standard padded base64. */
  readonly bodyB64: string;
  /** The forward's profile, when it has one. */
  readonly profile?: string;
}

/** The inbound-event functions a relay codec may offer; each one enables its cases. */
export interface MessageEventImplementation {
  /**
   * The gateway's Slack-only `/hermes` parent-command rewrite (`_normalize_slack_parent_command`) of
   * an event's text and (already read) message type. Capability `slack-parent-command`.
   */
  rewriteSlackParentCommand?(text: string, messageType: string): EventText | Promise<EventText>;
  /**
   * The inbound event the gateway makes of a Discord interaction forwarded on the passthrough plane
   * (`RelayAdapter._discord_interaction_to_event`), as the wire object an inbound frame carries (key
   * order compared), or `undefined` where the gateway drops the forward; throws or rejects where the
   * converter raises. `options.dialect` is a session-key dialect. Capability `discord-interaction-event`.
   */
  discordInteractionEvent?(
    forward: DiscordInteractionForward,
    options: { readonly dialect: string },
  ): unknown;
  /**
   * The gateway's session key of a wire SessionSource (`build_session_key`, default knobs). Capability
   * `event-session-key`, for the session keys of the Discord interaction events.
   */
  buildSessionKey?(
    source: Readonly<Record<string, unknown>>,
    options: SessionKeyOptions,
  ): string | Promise<string>;
  /**
   * The MessageEvent the gateway's relay reader (`ws_transport._event_from_wire`) makes of an inbound
   * frame's `event` value, by the gateway's attribute names (`text`, `message_type`, `source`,
   * `message_id`, `reply_to_message_id`, `reply_to_text`, `reply_to_author_name`,
   * `reply_to_is_own_message`, `media_urls`, `media_types`, `channel_context`, `prompt_response`; the
   * source as `sessionSourceFromWire` gives it); throws or rejects where that reader fails. Capability
   * `event-from-wire`.
   */
  eventFromWire?(wire: unknown): unknown;
  /**
   * A wire `event` object for an event as `eventFromWire` gives it, one the gateway reads as that same
   * event. With `eventFromWire`, which reads it back, capability `event-to-wire`.
   */
  eventToWire?(event: Readonly<Record<string, unknown>>): unknown;
  /**
   * The dialects other than the baseline that `discordInteractionEvent` and `buildSessionKey` take
   * (e.g. `'upstream-2026-09-21'`); cases in another dialect are skipped. Capability
   * `<capability>:<dialect>` per entry.
   */
  readonly eventDialects?: readonly string[];
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const SLACK_FIXTURE_NAME = 'relay/slack-parent-commands.json';
const INTERACTIONS_FIXTURE_NAME = 'relay/discord-interaction-events.json';
const SECTION_SLACK = 'relay-reference §4.1';
const SECTION_INTERACTIONS = 'relay-reference §10.2, §15.5';
const SECTION_SESSION_KEY = 'relay-reference §6, §10.2';
const INBOUND_FIXTURE_NAME = 'relay/inbound-events.json';
const SECTION_INBOUND = 'relay-reference §4.1, §4.2; contract §3';
const inboundCases = readFixtureFile(inboundEventsFixture, INBOUND_FIXTURE_NAME);
const slackCases = readFixtureFile(slackFixture, SLACK_FIXTURE_NAME);
const interactionCases = readFixtureFile(interactionsFixture, INTERACTIONS_FIXTURE_NAME);

/** The members of a MessageEventImplementation that provide each capability. */
export const MESSAGE_EVENT_MEMBERS = {
  'slack-parent-command': ['rewriteSlackParentCommand'],
  'discord-interaction-event': ['discordInteractionEvent'],
  'event-session-key': ['buildSessionKey'],
  'event-from-wire': ['eventFromWire'],
  'event-to-wire': ['eventFromWire', 'eventToWire'],
} as const satisfies CapabilityMembers<MessageEventImplementation>;

/** The capabilities a dialect other than the baseline qualifies, as `<capability>:<dialect>`. */
const IN_DIALECTS: readonly string[] = ['discord-interaction-event', 'event-session-key'];

/**
 * The capabilities `implementation` declares through its optional inbound-event functions, and
 * `<capability>:<dialect>` for each of its `eventDialects`.
 */
export function messageEventCapabilities(implementation: MessageEventImplementation): string[] {
  const capabilities = providedCapabilities(implementation, MESSAGE_EVENT_MEMBERS);
  const dialects = implementation.eventDialects ?? [];
  return [
    ...capabilities,
    ...capabilities
      .filter((capability) => IN_DIALECTS.includes(capability))
      .flatMap((capability) => dialects.map((dialect) => `${capability}:${dialect}`)),
  ];
}

/** What each `<capability>:<dialect>` that `capabilities` lists asks of the implementer. */
export function messageEventDialectNeeds(capabilities: Iterable<string>): Record<string, CapabilityNeed> {
  const needs: Record<string, CapabilityNeed> = {};
  for (const capability of capabilities) {
    const [base, dialect] = capability.split(/:(.*)/s, 2);
    if (dialect === undefined || !IN_DIALECTS.includes(base as string)) continue;
    const members = MESSAGE_EVENT_MEMBERS[base as keyof typeof MESSAGE_EVENT_MEMBERS];
    needs[capability] = {
      provide: `${members.map((member) => `\`${member}\``).join(' and ')} in the RelayCodecImplementation, with '${dialect}' in its \`eventDialects\``,
    };
  }
  return needs;
}

/**
 * Cases from `fixtures/relay/slack-parent-commands.json`, ids `<prefix>.slack-parent-commands.<fixture id>`,
 * and from `fixtures/relay/discord-interaction-events.json`, ids
 * `<prefix>.discord-interaction-events.<fixture id>` (the event) and `….session-key` (the session keys
 * of the event's source, without and with its profile), and since 1.3.0 from
 * `fixtures/relay/inbound-events.json`, ids `<prefix>.inbound-events.<fixture id>` (the event the
 * gateway reads, or its refusal) and `….rewire` (that event written back and read again).
 */
export function messageEventCases<Ctx extends MessageEventImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return [
    ...slackCases.cases.map((entry, index) =>
      slackCase<Ctx>(
        `${prefix}.slack-parent-commands.${entry.id}`,
        entry,
        `${SLACK_FIXTURE_NAME} cases[${index}]`,
      ),
    ),
    ...interactionCases.cases.flatMap((entry, index) =>
      interactionCasesFor<Ctx>(
        `${prefix}.discord-interaction-events.${entry.id}`,
        entry,
        `${INTERACTIONS_FIXTURE_NAME} cases[${index}]`,
      ),
    ),
    ...inboundCases.cases.flatMap((entry, index) =>
      inboundEventCasesFor<Ctx>(
        `${prefix}.inbound-events.${entry.id}`,
        entry,
        `${INBOUND_FIXTURE_NAME} cases[${index}]`,
      ),
    ),
  ];
}

function inboundEventCasesFor<Ctx extends MessageEventImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  // A fresh copy for every call: a reader must not be able to change what a later case reads.
  const wire = () => decodeFixtureValue(entry['event'], `${location}.event`);
  const common = {
    id,
    section: SECTION_INBOUND,
    level: levelForTags(entry.tags),
    since: INBOUND_EVENTS_SINCE,
    requires: 'event-from-wire',
  } as const;
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return [
      {
        ...common,
        title: `the gateway's reader fails on event ${entry.id} (${code})`,
        run: async (impl) => {
          const error = await assertRejects(
            async () => impl.eventFromWire?.(wire()),
            `the reader fails (${code})`,
          );
          if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
        },
      },
    ];
  }
  const expected = () =>
    readObject(decodeFixtureValue(entry['expected'], `${location}.expected`), `${location}.expected`);
  return [
    {
      ...common,
      title: `reads inbound event ${entry.id}`,
      run: async (impl) => assertEqual(await impl.eventFromWire?.(wire()), expected(), 'event read'),
    },
    {
      ...common,
      id: `${id}.rewire`,
      title: `inbound event ${entry.id} written back reads as the same event`,
      requires: 'event-to-wire',
      run: async (impl) => {
        const written = await impl.eventToWire?.(expected());
        assertEqual(await impl.eventFromWire?.(written), expected(), 'event read from the written event');
      },
    },
  ];
}

function slackCase<Ctx extends MessageEventImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx> {
  const text = readString(entry['text'], `${location}.text`);
  const messageType = readString(entry['message_type'], `${location}.message_type`);
  const expected = readObject(entry['expected'], `${location}.expected`);
  const rewritten: EventText = {
    text: readString(expected['text'], `${location}.expected.text`),
    message_type: readString(expected['message_type'], `${location}.expected.message_type`),
  };
  return {
    id,
    title: `Slack parent command ${entry.id}`,
    section: SECTION_SLACK,
    level: levelForTags(entry.tags),
    since: DESCRIPTOR_VIEWS_AND_EVENTS_SINCE,
    requires: 'slack-parent-command',
    run: async (impl) => {
      const result = await impl.rewriteSlackParentCommand?.(text, messageType);
      assertEqual(
        result && { text: result.text, message_type: result.message_type },
        rewritten,
        'event text',
      );
    },
  };
}

function interactionCasesFor<Ctx extends MessageEventImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  const body = readString(entry['body'], `${location}.body`);
  const dialect =
    'dialect' in entry ? readString(entry['dialect'], `${location}.dialect`) : BASELINE_SESSION_KEY_DIALECT;
  const profile = 'profile' in entry ? readString(entry['profile'], `${location}.profile`) : undefined;
  const forward: DiscordInteractionForward = {
    platform: 'discord',
    bodyB64: encodeBase64(new TextEncoder().encode(body)),
    ...(profile === undefined ? {} : { profile }),
  };
  const inDialect = (capability: string) =>
    dialect === BASELINE_SESSION_KEY_DIALECT ? capability : `${capability}:${dialect}`;
  const common = {
    id,
    section: SECTION_INTERACTIONS,
    level: levelForTags(entry.tags),
    since: DESCRIPTOR_VIEWS_AND_EVENTS_SINCE,
    requires: inDialect('discord-interaction-event'),
  } as const;
  const convert = (impl: Ctx) => impl.discordInteractionEvent?.({ ...forward }, { dialect });
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return [
      {
        ...common,
        title: `the Discord interaction converter raises on ${entry.id} (${code})`,
        run: async (impl) => {
          const error = await assertRejects(async () => convert(impl), `the converter raises (${code})`);
          if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
        },
      },
    ];
  }
  if (entry['dropped'] === true) {
    return [
      {
        ...common,
        title: `the gateway drops the Discord interaction ${entry.id}`,
        run: async (impl) => assertEqual(await convert(impl), undefined, 'event of a dropped forward'),
      },
    ];
  }
  if (!('expected' in entry)) {
    throw invalidFixtureError(location, 'a case needs "expected", "dropped" or "error"');
  }
  const event = () =>
    readObject(decodeFixtureValue(entry['expected'], `${location}.expected`), `${location}.expected`);
  const source = () => readObject(event()['source'], `${location}.expected.source`);
  const sessionKey = readString(entry['session_key'], `${location}.session_key`);
  const profileSessionKey =
    'profile_session_key' in entry
      ? readString(entry['profile_session_key'], `${location}.profile_session_key`)
      : undefined;
  return [
    {
      ...common,
      title: `the inbound event of the Discord interaction ${entry.id}`,
      run: async (impl) => assertOrderedEqual(await convert(impl), event(), 'inbound event'),
    },
    {
      ...common,
      id: `${id}.session-key`,
      title: `session key of the Discord interaction ${entry.id}`,
      section: SECTION_SESSION_KEY,
      requires: inDialect('event-session-key'),
      run: async (impl) => {
        assertEqual(await impl.buildSessionKey?.(source(), { dialect }), sessionKey, 'session key');
        if (profileSessionKey === undefined) return;
        const withProfile = {
          dialect,
          profile: readString(source()['profile'], `${location}.expected.source.profile`),
        };
        assertEqual(
          await impl.buildSessionKey?.(source(), withProfile),
          profileSessionKey,
          'session key with the profile',
        );
      },
    },
  ];
}
