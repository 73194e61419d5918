import { describeType } from '@agentwire/internal';
import { AgentConnectorError } from './contract/errors.js';

/** `bare` addresses route to `deliver()`, `composite` ones (containing `@`) to `wake()`. */
export type AddressShape = 'bare' | 'composite';

/**
 * An `agent_id` split at its first `@`. Lossless: for a composite, `agent + '@' + session === address`.
 * Nothing is trimmed or validated — whitespace, empty parts and further `@`s are data.
 */
export interface AgentAddress {
  /** The address exactly as given. */
  readonly address: string;
  readonly shape: AddressShape;
  /** The text before the first `@`; the whole address when bare. Can be empty (`@s`, `''`). */
  readonly agent: string;
  /**
   * The text after the first `@`, absent when bare. Can be empty (`alice@`) and can contain `@`
   * (`a@b@c` → `b@c`).
   */
  readonly session?: string;
}

/**
 * Whether an address routes to `wake()`: it contains `@` anywhere. E-mail addresses, Slack mentions
 * (`@U01…`, `<@U01…>`), `alice@` and `@` all do; the fullwidth `＠` and `%40` do not; nothing is trimmed.
 *
 * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
 * @example
 * isWakeAddress('perry');                  // false → deliver()
 * isWakeAddress('perry@kitchen-terminal'); // true  → wake()
 */
export function isWakeAddress(agent_id: string): boolean {
  return requireString(agent_id, 'agent_id').includes('@');
}

/**
 * Splits an address at its **first** `@`, the split the reference runtime claims with: `a@b@c` →
 * agent `a`, session `b@c`; `alice@` → session `''`; `@s` → agent `''`; `@` → both empty. Whitespace is
 * kept as written (`' alice @ x'` → agent `' alice '`). The empty string is a bare address.
 *
 * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
 * @example
 * parseAgentAddress('perry@kitchen-terminal');
 * // { address: 'perry@kitchen-terminal', shape: 'composite', agent: 'perry', session: 'kitchen-terminal' }
 */
export function parseAgentAddress(agent_id: string): AgentAddress {
  const address = requireString(agent_id, 'agent_id');
  const at = address.indexOf('@');
  if (at === -1) return { address, shape: 'bare', agent: address };
  return { address, shape: 'composite', agent: address.slice(0, at), session: address.slice(at + 1) };
}

/**
 * The session a connector should target: `opts.session_id` when it is a non-empty string, else the
 * non-empty text after the first `@` of `agent_id`, else `undefined` (no session: target the agent). An
 * empty string in either place means "no session", so `alice@` with no `opts` targets the agent, and
 * `opts.session_id: ''` defers to the address.
 *
 * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string, or `opts.session_id` is
 *   neither a string nor `undefined`.
 * @example
 * resolveSessionId('perry@kitchen');                          // 'kitchen'
 * resolveSessionId('perry@kitchen', { session_id: 'tab-3' }); // 'tab-3' (opts win)
 * resolveSessionId('perry');                                  // undefined
 */
export function resolveSessionId(
  agent_id: string,
  opts?: { readonly session_id?: string | undefined },
): string | undefined {
  const explicit: unknown = opts?.session_id;
  if (explicit !== undefined && typeof explicit !== 'string') {
    throw new AgentConnectorError(
      'invalid_agent_address',
      `opts.session_id must be a string, got ${describeType(explicit)}`,
      {
        path: 'opts.session_id',
      },
    );
  }
  if (explicit !== undefined && explicit !== '') return explicit;
  const { session } = parseAgentAddress(agent_id);
  return session === undefined || session === '' ? undefined : session;
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') {
    throw new AgentConnectorError(
      'invalid_agent_address',
      `${name} must be a string, got ${describeType(value)}`,
      {
        path: name,
      },
    );
  }
  return value;
}

/**
 * The `list_agents()` ids that claim an address during fan-out, as the reference runtime matches them:
 * the full address; and, for a composite, also the text before its first `@` (`a@b@c` → `['a@b@c', 'a']`,
 * never `a@b`; `@s` → `['@s', '']`). Comparison is exact: no trimming, no case folding.
 *
 * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
 * @example
 * claimingAgentIds('perry@kitchen'); // ['perry@kitchen', 'perry']
 * claimingAgentIds('perry');         // ['perry']
 */
export function claimingAgentIds(agent_id: string): readonly string[] {
  const parsed = parseAgentAddress(agent_id);
  return parsed.shape === 'bare' ? [parsed.address] : [parsed.address, parsed.agent];
}
