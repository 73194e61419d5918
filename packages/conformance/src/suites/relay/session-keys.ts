import sessionKeysFixture from '../../../fixtures/relay/session-keys.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readFixtureFile,
  readObject,
  readString,
} from '../../fixtures/fixture-file.js';
import { requiredCapabilities } from '../../run-suite.js';
import type { CapabilityNeed, ConformanceCase, ConformanceSuite } from '../../suite.js';
import { levelForTags } from './case-level.js';
import { RELAY_SESSION_KEYS_SUITE_VERSION, RELAY_SUITE_VERSION } from './suite-version.js';

/** The session-key dialect of a gateway of the baseline snapshot (2026-07-26); the default dialect. */
export const BASELINE_SESSION_KEY_DIALECT = 'baseline-2026-07-26';

/**
 * The knobs of `build_session_key`, camelCased; an absent one takes the gateway's default. The
 * refusal cases (tag `sdk`) pass values of other types on purpose.
 */
export interface SessionKeyOptions {
  /** Default `true`. */
  readonly groupSessionsPerUser?: boolean;
  /** Default `false`. */
  readonly threadSessionsPerUser?: boolean;
  /** Default `null` (no profile). */
  readonly profile?: string | null;
  /** Default the baseline dialect, {@link BASELINE_SESSION_KEY_DIALECT}. */
  readonly dialect?: string;
}

/** The session-key oracle under test. */
export interface SessionKeyImplementation {
  /**
   * The gateway's session key of `source` (SessionSource fields by wire name: `platform`,
   * `chat_type`, `chat_id`, `thread_id`, `user_id`, `user_id_alt`, `scope_id`,
   * `prospective_thread_id`; `null` is Python `None`, an absent key is absent). Throws or rejects where
   * the gateway crashes, and (recommended) for input no gateway `SessionSource` can hold.
   */
  buildSessionKey(
    source: Readonly<Record<string, unknown>>,
    options: SessionKeyOptions,
  ): string | Promise<string>;
  /**
   * The dialects other than the baseline that `options.dialect` selects (e.g. `'upstream-2026-09-21'`);
   * cases keyed under another dialect are skipped. Capability `dialect:<name>` per entry.
   */
  readonly dialects?: readonly string[];
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'relay/session-keys.json';
const SUITE_NAME = 'relay.session-keys';
const SECTION_BASELINE = 'relay-reference §6';
const SECTION_UPSTREAM = 'relay-reference §6, §15';
const INVALID_OPTIONS = 'invalid_session_key_options';
const OPTION_NAMES: Readonly<Record<string, keyof SessionKeyOptions>> = {
  group_sessions_per_user: 'groupSessionsPerUser',
  thread_sessions_per_user: 'threadSessionsPerUser',
  profile: 'profile',
  dialect: 'dialect',
};
const fixture = readFixtureFile(sessionKeysFixture, FIXTURE_NAME);
/** The fixture cases `relay.session-keys` 1.1.0 added; the others date from 1.0.0. */
const ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'unsafe-integer-not-written',
  'refused-unsafe-integer-chat-id',
  'refused-unsafe-integer-in-list',
  'refused-unsafe-integer-in-object',
  'refused-bytes-user-id',
]);

/**
 * The gateway's `build_session_key` from `fixtures/relay/session-keys.json`: every branch for DMs,
 * groups, channels and threads on Discord, Telegram, Slack, WhatsApp, Signal and Matrix, each knob,
 * profiles, the newer upstream dialect (when declared in `dialects`), the inputs that crash the gateway
 * and (recommended) the SDK's refusals. One case per fixture case, id `relay.session-keys.<fixture id>`.
 *
 * @example
 * ```ts
 * import { buildSessionKey } from '@agentwire/relay';
 * const report = await runSuite(
 *   sessionKeySuite({ buildSessionKey, dialects: ['upstream-2026-09-21'] }),
 * );
 * ```
 */
export function sessionKeySuite(
  implementation: SessionKeyImplementation,
): ConformanceSuite<SessionKeyImplementation> {
  const capabilities = new Set((implementation.dialects ?? []).map(dialectCapability));
  const cases = fixture.cases.map(caseFor);
  return {
    name: SUITE_NAME,
    version: RELAY_SESSION_KEYS_SUITE_VERSION,
    description: fixture.description,
    cases,
    setup: () => ({ ctx: implementation, capabilities }),
    needs: dialectNeeds(cases),
  };
}

function caseFor(entry: FixtureCase, index: number): ConformanceCase<SessionKeyImplementation> {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const source = () =>
    readObject(decodeFixtureValue(entry['source'], `${location}.source`), `${location}.source`);
  const options = readOptions(entry['options'], `${location}.options`);
  const dialect = options.dialect;
  const error = 'error' in entry ? readString(entry['error'], `${location}.error`) : undefined;
  // A case about refusing the options runs everywhere; any other case needs the dialect it is keyed in.
  const requires =
    typeof dialect === 'string' && dialect !== BASELINE_SESSION_KEY_DIALECT && error !== INVALID_OPTIONS
      ? dialectCapability(dialect)
      : undefined;
  const common = {
    id: `${SUITE_NAME}.${entry.id}`,
    section: entry.tags.includes('upstream') ? SECTION_UPSTREAM : SECTION_BASELINE,
    level: levelForTags(entry.tags),
    since: ADDED_IN_1_1.has(entry.id) ? RELAY_SESSION_KEYS_SUITE_VERSION : RELAY_SUITE_VERSION,
    ...(requires === undefined ? {} : { requires }),
  } as const;
  if (error !== undefined) {
    return {
      ...common,
      title: `refuses ${entry.id} (${error})`,
      run: async (impl) => {
        const thrown = await assertRejects(
          () => impl.buildSessionKey(source(), options),
          `no session key exists (${error})`,
        );
        if (impl.errorCode) assertEqual(impl.errorCode(thrown), error, 'error code');
      },
    };
  }
  if (!('expected' in entry)) throw invalidFixtureError(location, 'a case needs "expected" or "error"');
  const expected = readString(entry['expected'], `${location}.expected`);
  return {
    ...common,
    title: `session key of ${entry.id}`,
    run: async (impl) => assertEqual(await impl.buildSessionKey(source(), options), expected, 'session key'),
  };
}

/** The fixture's snake_case options as {@link SessionKeyOptions}, values passed through unchecked. */
function readOptions(value: unknown, location: string): SessionKeyOptions {
  const options: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(readObject(value, location))) {
    const key = OPTION_NAMES[name];
    if (key === undefined) throw invalidFixtureError(`${location}.${name}`, 'unknown option');
    options[key] = option;
  }
  return options as SessionKeyOptions;
}

function dialectCapability(dialect: string): string {
  return `dialect:${dialect}`;
}

/** What each dialect capability that `cases` require asks of the implementer. */
function dialectNeeds(
  cases: readonly ConformanceCase<SessionKeyImplementation>[],
): Record<string, CapabilityNeed> {
  const prefix = dialectCapability('');
  return Object.fromEntries(
    cases
      .flatMap(requiredCapabilities)
      .filter((capability) => capability.startsWith(prefix))
      .map((capability) => [
        capability,
        {
          provide: `'${capability.slice(prefix.length)}' in the \`dialects\` of the SessionKeyImplementation`,
        },
      ]),
  );
}
