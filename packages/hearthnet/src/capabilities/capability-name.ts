import { HearthNetLocalError } from '../errors.js';

/** The status of a capability name prefix in contract §3.1, or `unallocated` for a prefix it does not list. */
export type CapabilityPrefixStatus = 'stable' | 'beta' | 'reserved' | 'unstable' | 'unallocated';

/** The prefix table of contract §3.1. */
export const CAPABILITY_PREFIXES: {
  readonly [prefix: string]: Exclude<CapabilityPrefixStatus, 'unallocated'>;
} = Object.freeze({
  llm: 'stable',
  embed: 'stable',
  rag: 'stable',
  file: 'stable',
  market: 'stable',
  chat: 'stable',
  community: 'stable',
  federation: 'beta',
  ocr: 'reserved',
  tts: 'reserved',
  stt: 'reserved',
  trans: 'reserved',
  img: 'reserved',
  experimental: 'unstable',
});

/** A capability name taken apart by {@link parseCapabilityName}. */
export interface ParsedCapabilityName {
  readonly name: string;
  /** The first dot-separated segment, e.g. `llm` of `llm.chat`. */
  readonly prefix: string;
  readonly prefixStatus: CapabilityPrefixStatus;
}

/** The longest capability name accepted. */
export const MAX_CAPABILITY_NAME_LENGTH = 128;
const nameSyntax = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$/;

/**
 * Checks the syntax of a capability name — dot-separated segments of `[a-z][a-z0-9_]*`, at least two,
 * at most {@link MAX_CAPABILITY_NAME_LENGTH} characters — and looks up its prefix in contract §3.1.
 * It does not apply the prefix rules (the reference registers names such as `discovery.peer.add`);
 * {@link assertRegistrableCapabilityName} does.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` with `details.reason` `malformed`.
 * @example
 * ```ts
 * parseCapabilityName('rag.list_corpora'); // { name: 'rag.list_corpora', prefix: 'rag', prefixStatus: 'stable' }
 * ```
 */
export function parseCapabilityName(name: string): ParsedCapabilityName {
  if (typeof name !== 'string' || name.length > MAX_CAPABILITY_NAME_LENGTH || !nameSyntax.test(name)) {
    throw new HearthNetLocalError(
      'invalid_capability_name',
      `capability name must be dot-separated lowercase segments ([a-z][a-z0-9_]*, at least two, ≤ ${MAX_CAPABILITY_NAME_LENGTH} characters), got ${describe(name)}`,
      { details: { reason: 'malformed', value: name } },
    );
  }
  const prefix = name.slice(0, name.indexOf('.'));
  return {
    name,
    prefix,
    prefixStatus: Object.hasOwn(CAPABILITY_PREFIXES, prefix) ? CAPABILITY_PREFIXES[prefix]! : 'unallocated',
  };
}

/**
 * Applies the prefix rules of contract §3.1 on top of {@link parseCapabilityName}: reserved prefixes
 * may not be used, and a name outside the allocated prefixes must start with `experimental.`.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` with `details.reason` `malformed`,
 *   `reserved_prefix` or `unallocated_prefix`.
 * @example
 * ```ts
 * assertRegistrableCapabilityName('experimental.weather'); // ok
 * assertRegistrableCapabilityName('ocr.page'); // throws: reserved_prefix
 * ```
 */
export function assertRegistrableCapabilityName(name: string): ParsedCapabilityName {
  const parsed = parseCapabilityName(name);
  if (parsed.prefixStatus === 'reserved') {
    throw new HearthNetLocalError(
      'invalid_capability_name',
      `capability prefix "${parsed.prefix}." is reserved and may not be used (contract §3.1)`,
      { details: { reason: 'reserved_prefix', value: name } },
    );
  }
  if (parsed.prefixStatus === 'unallocated') {
    throw new HearthNetLocalError(
      'invalid_capability_name',
      `capability prefix "${parsed.prefix}." is not allocated; name it "experimental.${name}" (contract §3.1)`,
      { details: { reason: 'unallocated_prefix', value: name } },
    );
  }
  return parsed;
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return value === null ? 'null' : typeof value;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
