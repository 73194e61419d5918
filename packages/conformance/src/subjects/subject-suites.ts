import { formatValue } from '../assert.js';
import { ConformanceError } from '../errors.js';
import type { ConformanceSuite } from '../suite.js';
import {
  type AgentConnectorSuiteOptions,
  agentConnectorSuite,
} from '../suites/agent-connector/agent-connector-suite.js';
import { type DataStoreSuiteOptions, dataStoreSuite } from '../suites/data-store/data-store-suite.js';
import { type BlobStoreSuiteOptions, blobStoreSuite } from '../suites/hearthnet/blob-store.js';
import { type EventStoreSuiteOptions, eventStoreSuite } from '../suites/hearthnet/event-store.js';
import {
  type EnrollmentTokenStoreSuiteOptions,
  enrollmentTokenStoreSuite,
} from '../suites/relay-edge/enrollment-token-store-suite.js';
import { type PolicyStoreSuiteOptions, policyStoreSuite } from '../suites/relay-edge/policy-store-suite.js';
import {
  type ProvisionRegistrySuiteOptions,
  provisionRegistrySuite,
} from '../suites/relay-edge/provision-registry-suite.js';
import type { PlatformAdapterSuiteOptions } from '../suites/relay-platform/platform-adapter-suite.js';
import {
  type CapabilityVaultSuiteOptions,
  capabilityVaultSuite,
} from '../suites/relay-runtime/capability-vault-suite.js';
import {
  type GatewaySecretStoreSuiteOptions,
  gatewaySecretStoreSuite,
} from '../suites/relay-runtime/gateway-secret-store-suite.js';
import {
  type InboundBufferSuiteOptions,
  inboundBufferSuite,
} from '../suites/relay-runtime/inbound-buffer-suite.js';
import { type RelayBusSuiteOptions, relayBusSuite } from '../suites/relay-runtime/relay-bus-suite.js';
import { type SkillStoreSuiteOptions, skillStoreSuite } from '../suites/skill-store/skill-store-suite.js';

/** A suite bound to one implementation, and the name that implementation is reported under. */
export interface SubjectSuite {
  readonly suite: ConformanceSuite<unknown>;
  readonly subject: string;
}

/**
 * What a field of an entry must hold: a function, a boolean, a positive number of milliseconds, or an
 * object (a kit of helpers, such as a store suite's `conventions`).
 */
type FieldKind = 'function' | 'boolean' | 'milliseconds' | 'object';

/** How the entries of one interface are checked and turned into a suite. */
export interface InterfaceRule {
  /** The other fields an entry may have. */
  readonly optional: Readonly<Record<string, FieldKind>>;
  /** The interface's suite, given an entry (its `name` removed) that passed the checks. */
  readonly suite: (options: Readonly<Record<string, unknown>>) => ConformanceSuite<unknown>;
}

/** Every interface a subjects description may name, in the order their rows run. */
export const INTERFACES: InterfaceRules = {
  agentConnectors: {
    optional: {},
    suite: (options) => agentConnectorSuite(options as unknown as AgentConnectorSuiteOptions),
  },
  skillStores: {
    optional: { conventions: 'object' },
    suite: (options) => skillStoreSuite(options as unknown as SkillStoreSuiteOptions),
  },
  dataStores: {
    optional: { conventions: 'object' },
    suite: (options) => dataStoreSuite(options as unknown as DataStoreSuiteOptions),
  },
  eventStores: {
    optional: { reopen: 'function', dispose: 'function' },
    suite: (options) => eventStoreSuite(options as unknown as EventStoreSuiteOptions),
  },
  blobStores: {
    optional: { wireError: 'function', dispose: 'function' },
    suite: (options) => blobStoreSuite(options as unknown as BlobStoreSuiteOptions),
  },
  relayBuses: {
    optional: { sharedBackend: 'boolean', deliveryTimeoutMs: 'milliseconds', dispose: 'function' },
    suite: (options) => relayBusSuite(options as unknown as RelayBusSuiteOptions),
  },
  inboundBuffers: {
    optional: { sharedBackend: 'boolean', dispose: 'function' },
    suite: (options) => inboundBufferSuite(options as unknown as InboundBufferSuiteOptions),
  },
  capabilityVaults: {
    optional: {
      elapse: 'function',
      shortTtlMs: 'milliseconds',
      sharedBackend: 'boolean',
      dispose: 'function',
    },
    suite: (options) => capabilityVaultSuite(options as unknown as CapabilityVaultSuiteOptions),
  },
  gatewaySecretStores: {
    optional: { sharedBackend: 'boolean', dispose: 'function' },
    suite: (options) => gatewaySecretStoreSuite(options as unknown as GatewaySecretStoreSuiteOptions),
  },
  enrollmentTokenStores: {
    optional: {
      release: 'function',
      elapse: 'function',
      shortTtlMs: 'milliseconds',
      sharedBackend: 'boolean',
      dispose: 'function',
    },
    suite: (options) =>
      enrollmentTokenStoreSuite(
        options as unknown as EnrollmentTokenStoreSuiteOptions,
      ) as ConformanceSuite<unknown>,
  },
  provisionRegistries: {
    optional: { release: 'function', sharedBackend: 'boolean', dispose: 'function' },
    suite: (options) =>
      provisionRegistrySuite(
        options as unknown as ProvisionRegistrySuiteOptions,
      ) as ConformanceSuite<unknown>,
  },
  policyStores: {
    optional: { release: 'function', sharedBackend: 'boolean', dispose: 'function' },
    suite: (options) =>
      policyStoreSuite(options as unknown as PolicyStoreSuiteOptions) as ConformanceSuite<unknown>,
  },
  platformAdapters: {
    optional: { patienceMs: 'milliseconds' },
    // The suite serves the adapter with the relay server (Node): this runtime-neutral table only names
    // it; the CLI binds it (see `bindSubjects`).
    suite: () => {
      throw new ConformanceError(
        'invalid_subjects',
        'platformAdapters run in Node: check them with the agentwire-conformance CLI, or build ' +
          'platformAdapterSuite from @agentwire/conformance/relay-live',
      );
    },
  },
};

/** A table of interface rules: the runtime-neutral one, or the CLI's with the Node-only suites bound. */
export type InterfaceRules = { readonly [Key in keyof Required<ConformanceSubjects>]: InterfaceRule };

const INTERFACE_NAMES = Object.keys(INTERFACES) as (keyof ConformanceSubjects)[];

/** The keys a subjects description may use, in the order their rows run. */
export const SUBJECT_KEYS: readonly string[] = INTERFACE_NAMES;

/**
 * Checks a subjects description (see {@link ConformanceSubjects}) and binds each implementation it
 * names to its interface's suite: one row per entry, interfaces in the order of the table above,
 * entries in their given order. Nothing is created yet: the factories run when the suites run.
 *
 * @param source names the description in error messages (the module it came from).
 * @throws {ConformanceError} `invalid_subjects`: naming the first problem: not an object, an unknown
 *   interface key, an interface that is not an array, an entry that is not an object, a missing or
 *   repeated `name`, a missing `create`, an unknown field, a field of the wrong type, or no implementation
 *   at all.
 * @example
 * ```ts
 * for (const { suite, subject } of subjectSuites(subjects, 'my-subjects')) {
 *   console.log(formatReportTable([await runSuite(suite, { subject })]));
 * }
 * ```
 */
export function subjectSuites(subjects: unknown, source = 'subjects'): SubjectSuite[] {
  return bindSubjects(subjects, source, INTERFACES);
}

/**
 * {@link subjectSuites} with the rules given: the CLI passes the table with the Node-only suites bound
 * (`withNodeInterfaces`).
 */
export function bindSubjects(subjects: unknown, source: string, interfaces: InterfaceRules): SubjectSuite[] {
  if (!isPlainObject(subjects)) {
    throw new ConformanceError(
      'invalid_subjects',
      `${source} must describe implementations by interface (an object with ${listNames(INTERFACE_NAMES)}), got ${describeValue(subjects)}`,
    );
  }
  const unknown = Object.keys(subjects).filter((key) => !Object.hasOwn(INTERFACES, key));
  if (unknown.length > 0) {
    throw new ConformanceError(
      'invalid_subjects',
      `${source} names unknown interface ${unknown.join(', ')} (known: ${listNames(INTERFACE_NAMES)})`,
    );
  }
  const rows: SubjectSuite[] = [];
  for (const key of INTERFACE_NAMES) {
    const entries = subjects[key];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      throw new ConformanceError(
        'invalid_subjects',
        `${source}: ${key} must be an array, got ${describeValue(entries)}`,
      );
    }
    const names = new Set<string>();
    entries.forEach((entry: unknown, index) => {
      const at = `${source}: ${key}[${index}]`;
      const { name, options } = checkEntry(entry, at, interfaces[key]);
      if (names.has(name))
        throw new ConformanceError('invalid_subjects', `${at} repeats the name ${JSON.stringify(name)}`);
      names.add(name);
      rows.push({ subject: name, suite: interfaces[key].suite(options) });
    });
  }
  if (rows.length === 0) throw new ConformanceError('invalid_subjects', `${source} names no implementation`);
  return rows;
}

function checkEntry(
  entry: unknown,
  at: string,
  rule: InterfaceRule,
): { name: string; options: Readonly<Record<string, unknown>> } {
  if (!isPlainObject(entry)) {
    throw new ConformanceError(
      'invalid_subjects',
      `${at} must be an object with a name and a create function, got ${describeValue(entry)}`,
    );
  }
  const { name, ...options } = entry;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ConformanceError(
      'invalid_subjects',
      `${at}.name must be a non-empty string, got ${describeValue(name)}`,
    );
  }
  const named = `${at} (${name})`;
  const fields: Readonly<Record<string, FieldKind>> = { create: 'function', ...rule.optional };
  for (const [field, value] of Object.entries(options)) {
    const kind = fields[field];
    if (kind === undefined) {
      throw new ConformanceError(
        'invalid_subjects',
        `${named} has an unknown field ${field} (it takes ${listNames(Object.keys(fields))})`,
      );
    }
    if (value !== undefined && !hasKind(value, kind)) {
      throw new ConformanceError(
        'invalid_subjects',
        `${named}.${field} must be ${KIND_WORDS[kind]}, got ${describeValue(value)}`,
      );
    }
  }
  if (typeof options['create'] !== 'function') {
    throw new ConformanceError('invalid_subjects', `${named} needs a create function`);
  }
  return { name, options };
}

const KIND_WORDS: Readonly<Record<FieldKind, string>> = {
  function: 'a function',
  boolean: 'a boolean',
  milliseconds: 'a positive number of milliseconds',
  object: 'an object',
};

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'function':
      return typeof value === 'function';
    case 'boolean':
      return typeof value === 'boolean';
    case 'milliseconds':
      return typeof value === 'number' && Number.isFinite(value) && value > 0;
    case 'object':
      return isPlainObject(value);
  }
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isThenable(value);
}

function isThenable(value: unknown): boolean {
  return typeof (value as { readonly then?: unknown } | null)?.then === 'function';
}

function listNames(names: readonly string[]): string {
  return names.join(', ');
}

function describeValue(value: unknown): string {
  if (isThenable(value)) return 'a promise (export the resolved value: top-level await works)';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && value !== null) return 'an object';
  return formatValue(value);
}

/**
 * One implementation under test: the options of its interface's suite (its `create` among them), plus
 * the name the report shows it under.
 */
export type NamedSubject<SuiteOptions> = SuiteOptions & {
  /** Names the implementation in the report, e.g. `'SqliteSkillStore, on a file'`; unique per interface. */
  readonly name: string;
};

/**
 * Implementations to check, by the interface they implement: each entry is the options object of that
 * interface's suite plus a `name`, and runs as one row (suite × implementation). This is the shape of
 * the default export of an `agentwire-conformance --subjects MODULE` module; every key is optional.
 *
 * | key                   | suite                     | what `create` returns                                  |
 * | --------------------- | ------------------------- | ------------------------------------------------------ |
 * | `agentConnectors`     | `agentConnectorSuite`     | `create()` → a connector (or `{ connector, … }`)      |
 * | `skillStores`         | `skillStoreSuite`         | `create()` → a fresh store (or `{ store, dispose }`)  |
 * | `dataStores`          | `dataStoreSuite`          | `create()` → a store (or `{ store, dispose }`)        |
 * | `eventStores`         | `eventStoreSuite`         | `create()` → a store; `reopen`, `dispose` optional    |
 * | `blobStores`          | `blobStoreSuite`          | `create(options)` → an empty store; `wireError`        |
 * | `relayBuses`          | `relayBusSuite`           | `create()` → an open bus                               |
 * | `inboundBuffers`      | `inboundBufferSuite`      | `create()` → an open buffer                            |
 * | `capabilityVaults`    | `capabilityVaultSuite`    | `create()` → an open vault; `elapse` for a fake clock  |
 * | `gatewaySecretStores` | `gatewaySecretStoreSuite` | `create(now)` → a store on the clock `now`             |
 * | `enrollmentTokenStores` | `enrollmentTokenStoreSuite` | `create()` → a store; `elapse` for a fake clock    |
 * | `provisionRegistries` | `provisionRegistrySuite`  | `create()` → a registry                                |
 * | `policyStores`        | `policyStoreSuite`        | `create()` → a policy store                            |
 * | `platformAdapters`    | `platformAdapterSuite`    | `create()` → `{ adapter, chatId, refusal?, observe? }` |
 *
 * `create` may be async. Whatever it sets up (a temp folder, a connection) is released by the
 * entry's `dispose` (or the `dispose` of what it returns), which the suite calls after its
 * last case, also when cases fail.
 *
 * @example
 * ```js
 * // conformance.subjects.mjs — `npx agentwire-conformance --subjects ./conformance.subjects.mjs`
 * import { MySkillStore, MyRelayBus } from './dist/index.js';
 *
 * export default {
 *   skillStores: [{ name: 'MySkillStore', create: () => new MySkillStore({ path: ':memory:' }) }],
 *   relayBuses: [{ name: 'MyRelayBus', create: () => new MyRelayBus() }],
 * };
 * ```
 */
export interface ConformanceSubjects {
  readonly agentConnectors?: readonly NamedSubject<AgentConnectorSuiteOptions>[];
  readonly skillStores?: readonly NamedSubject<SkillStoreSuiteOptions>[];
  readonly dataStores?: readonly NamedSubject<DataStoreSuiteOptions>[];
  readonly eventStores?: readonly NamedSubject<EventStoreSuiteOptions>[];
  readonly blobStores?: readonly NamedSubject<BlobStoreSuiteOptions>[];
  readonly relayBuses?: readonly NamedSubject<RelayBusSuiteOptions>[];
  readonly inboundBuffers?: readonly NamedSubject<InboundBufferSuiteOptions>[];
  readonly capabilityVaults?: readonly NamedSubject<CapabilityVaultSuiteOptions>[];
  readonly gatewaySecretStores?: readonly NamedSubject<GatewaySecretStoreSuiteOptions>[];
  readonly enrollmentTokenStores?: readonly NamedSubject<EnrollmentTokenStoreSuiteOptions>[];
  readonly provisionRegistries?: readonly NamedSubject<ProvisionRegistrySuiteOptions>[];
  readonly policyStores?: readonly NamedSubject<PolicyStoreSuiteOptions>[];
  readonly platformAdapters?: readonly NamedSubject<PlatformAdapterSuiteOptions>[];
}
