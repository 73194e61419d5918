import addressesFixture from '../../../fixtures/agent-connector/addresses.json' with { type: 'json' };
import { assertEqual, assertRefuses, formatValue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readFixtureFile,
  readObject,
  readString,
  readStringArray,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { AGENT_CONNECTOR_SUITE_VERSION } from './agent-connector-suite.js';

/** An address split at its first `@`, as `parseAgentAddress` returns it. */
export interface ParsedAgentAddress {
  /** The address exactly as given. */
  readonly address: string;
  /** `'composite'` when the address contains `@`, else `'bare'`. */
  readonly shape: 'bare' | 'composite';
  /** The text before the first `@`; the whole address when bare. */
  readonly agent: string;
  /** The text after the first `@`; absent (not `undefined`-valued) when bare. */
  readonly session?: string;
}

/**
 * The `agent@session` routing functions under test. Only `isWakeAddress` is required; each other one
 * enables its cases. Every function must throw an error whose `code` is the fixture's (such as
 * `invalid_agent_address`) for an address that is not a string.
 */
export interface AgentAddressImplementation {
  /** Whether the address routes to `wake()` (it contains `@`). */
  isWakeAddress(address: string): boolean;
  /** The address split at its first `@`. Capability `parse`. */
  parseAgentAddress?(address: string): ParsedAgentAddress;
  /** The `list_agents()` ids that claim the address during fan-out. Capability `claiming-ids`. */
  claimingAgentIds?(address: string): readonly string[];
  /** The session a wake targets: `opts.session_id`, else the address's session; `undefined` for none. Capability `resolve-session`. */
  resolveSessionId?(address: string, opts?: { readonly session_id?: string }): string | undefined;
}

const FIXTURE_NAME = 'agent-connector/addresses.json';
const SECTION = 'AgentConnector v1.0 §agent@session targeting';
const SUITE_NAME = 'agent-connector.addresses';
const fixture = readFixtureFile(addressesFixture, FIXTURE_NAME);

/** The members of an AgentAddressImplementation that provide each capability. */
const ADDRESS_MEMBERS = {
  parse: ['parseAgentAddress'],
  'claiming-ids': ['claimingAgentIds'],
  'resolve-session': ['resolveSessionId'],
} as const satisfies CapabilityMembers<AgentAddressImplementation>;

/**
 * `agent@session` address routing from `fixtures/agent-connector/addresses.json`: which addresses wake,
 * how they split at the first `@`, which listed agents claim them, which session a wake targets, and the
 * refusal of addresses that are not strings. One case per fixture case and function.
 *
 * @example
 * ```ts
 * import { claimingAgentIds, isWakeAddress, parseAgentAddress, resolveSessionId } from '@agentwire/agent-connector';
 * const report = await runSuite(
 *   agentAddressSuite({ isWakeAddress, parseAgentAddress, claimingAgentIds, resolveSessionId }),
 * );
 * ```
 */
export function agentAddressSuite(
  implementation: AgentAddressImplementation,
): ConformanceSuite<AgentAddressImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, ADDRESS_MEMBERS));
  return {
    name: SUITE_NAME,
    version: AGENT_CONNECTOR_SUITE_VERSION,
    description: fixture.description,
    cases: [...fixture.cases.flatMap(casesFor), OPTS_SESSION_ID_REFUSED],
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(ADDRESS_MEMBERS, 'AgentAddressImplementation'),
  };
}

type AddressCase = ConformanceCase<AgentAddressImplementation>;

/** The suite version that added the refusal of a non-string `opts.session_id` and the refusals' `path`. */
const AGENT_ADDRESS_SINCE_1_1 = '1.1.0';

/** `resolveSessionId` refuses an `opts.session_id` that is neither a string nor absent, naming it. */
const OPTS_SESSION_ID_REFUSED: AddressCase = {
  id: `${SUITE_NAME}.opts-session-id-not-a-string.resolve-session`,
  title:
    'resolveSessionId refuses an opts.session_id that is not a string (invalid_agent_address, path opts.session_id)',
  section: SECTION,
  level: 'required',
  since: AGENT_ADDRESS_SINCE_1_1,
  requires: 'resolve-session',
  run: async (impl) => {
    for (const bad of [7, null, ['kitchen']]) {
      await assertRefuses(
        () => impl.resolveSessionId?.('perry@kitchen', { session_id: bad as unknown as string }),
        { code: 'invalid_agent_address', path: 'opts.session_id' },
        `resolveSessionId('perry@kitchen', { session_id: ${formatValue(bad)} })`,
      );
    }
  },
};

/** One function of the implementation: its capability (none for the required one) and how to call it. */
interface AddressFunction {
  readonly suffix: string;
  readonly name: string;
  readonly requires?: string;
  readonly call: (
    impl: AgentAddressImplementation,
    address: string,
    opts?: { session_id: string },
  ) => unknown;
}

const FUNCTIONS: readonly AddressFunction[] = [
  { suffix: 'route', name: 'isWakeAddress', call: (impl, address) => impl.isWakeAddress(address) },
  {
    suffix: 'parse',
    name: 'parseAgentAddress',
    requires: 'parse',
    call: (impl, address) => impl.parseAgentAddress?.(address),
  },
  {
    suffix: 'claiming-ids',
    name: 'claimingAgentIds',
    requires: 'claiming-ids',
    call: (impl, address) => impl.claimingAgentIds?.(address),
  },
  {
    suffix: 'resolve-session',
    name: 'resolveSessionId',
    requires: 'resolve-session',
    call: (impl, address, opts) => impl.resolveSessionId?.(address, opts),
  },
];

function casesFor(entry: FixtureCase, index: number): AddressCase[] {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  // The address is deliberately unchecked: the invalid cases hold null, numbers and arrays.
  const address = entry['address'] as string;
  const optsSessionId = entry['opts_session_id'];
  const opts =
    optsSessionId === undefined
      ? undefined
      : { session_id: readString(optsSessionId, `${location}.opts_session_id`) };
  const base = (fn: AddressFunction) => ({
    id: `${SUITE_NAME}.${entry.id}.${fn.suffix}`,
    section: SECTION,
    level: 'required' as const,
    since: AGENT_ADDRESS_SINCE_1_1,
    ...(fn.requires === undefined ? {} : { requires: fn.requires }),
  });
  if (entry['error'] !== undefined) {
    const code = readString(entry['error'], `${location}.error`);
    const path =
      entry['error_path'] === undefined
        ? undefined
        : readString(entry['error_path'], `${location}.error_path`);
    return FUNCTIONS.map(
      (fn): AddressCase => ({
        ...base(fn),
        title: `${fn.name}(${formatValue(address)}) refuses with ${code}`,
        run: async (impl) => {
          await assertRefuses(
            () => fn.call(impl, address, opts),
            { code, ...(path === undefined ? {} : { path }) },
            `${fn.name}(${formatValue(address)})`,
          );
        },
      }),
    );
  }
  const expected = readExpected(entry['expected'], `${location}.expected`);
  const call = `(${formatValue(address)}${opts === undefined ? '' : `, ${formatValue(opts)}`})`;
  return [
    {
      ...base(FUNCTIONS[0]!),
      title: `${formatValue(address)} routes to ${expected.route}()`,
      run: (impl) =>
        assertEqual(impl.isWakeAddress(address), expected.route === 'wake', `isWakeAddress${call}`),
    },
    {
      ...base(FUNCTIONS[1]!),
      title: `${formatValue(address)} splits into agent ${formatValue(expected.agent)} and session ${formatValue(expected.session)}`,
      run: (impl) => {
        const parsed = impl.parseAgentAddress?.(address);
        assertEqual(parsed?.address, address, `parseAgentAddress${call}.address`);
        assertEqual(
          parsed?.shape,
          expected.route === 'wake' ? 'composite' : 'bare',
          `parseAgentAddress${call}.shape`,
        );
        assertEqual(parsed?.agent, expected.agent, `parseAgentAddress${call}.agent`);
        assertEqual(parsed?.session ?? null, expected.session, `parseAgentAddress${call}.session`);
        assertEqual(
          parsed !== undefined && 'session' in parsed,
          expected.session !== null,
          `parseAgentAddress${call} has a session field`,
        );
      },
    },
    {
      ...base(FUNCTIONS[2]!),
      title: `listed agents ${formatValue(expected.claimingAgentIds)} claim ${formatValue(address)}`,
      run: (impl) =>
        assertEqual(impl.claimingAgentIds?.(address), expected.claimingAgentIds, `claimingAgentIds${call}`),
    },
    {
      ...base(FUNCTIONS[3]!),
      title: `a wake of ${formatValue(address)}${opts === undefined ? '' : ' with opts.session_id'} targets session ${formatValue(expected.resolvedSessionId)}`,
      run: (impl) =>
        assertEqual(
          impl.resolveSessionId?.(address, opts) ?? null,
          expected.resolvedSessionId,
          `resolveSessionId${call}`,
        ),
    },
  ];
}

interface ExpectedRouting {
  readonly route: 'deliver' | 'wake';
  readonly agent: string;
  readonly session: string | null;
  readonly claimingAgentIds: readonly string[];
  readonly resolvedSessionId: string | null;
}

function readExpected(value: unknown, location: string): ExpectedRouting {
  const record = readObject(value, location);
  const route = record['route'];
  if (route !== 'deliver' && route !== 'wake') {
    throw invalidFixtureError(`${location}.route`, 'expected "deliver" or "wake"');
  }
  const nullableString = (field: string) =>
    record[field] === null ? null : readString(record[field], `${location}.${field}`);
  return {
    route,
    agent: readString(record['agent'], `${location}.agent`),
    session: nullableString('session'),
    claimingAgentIds: readStringArray(record['claiming_agent_ids'], `${location}.claiming_agent_ids`),
    resolvedSessionId: nullableString('resolved_session_id'),
  };
}
