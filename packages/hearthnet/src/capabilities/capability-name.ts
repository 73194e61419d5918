import { describeValue } from '@agentwire/internal';
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
      `capability name must be dot-separated lowercase segments ([a-z][a-z0-9_]*, at least two, ≤ ${MAX_CAPABILITY_NAME_LENGTH} characters), got ${describeValue(name)}`,
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

/** A capability version `"X.Y"` (contract §2.1): `major` bumps break callers, `minor` bumps only add. */
export interface CapabilityVersion {
  readonly major: number;
  readonly minor: number;
}

/** A capability as offered: `name@X.Y`. */
export interface CapabilityRef {
  readonly name: string;
  readonly version: string;
}

/** A capability as requested: `name@>=A.B`, satisfied by the same name at `A.Y` with `Y ≥ B`. */
export interface CapabilityRequirement {
  readonly name: string;
  /** The lowest acceptable version; only the same major satisfies it. */
  readonly minimum: string;
}

const versionSyntax = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/**
 * Parses `"X.Y"`: two non-negative integers without leading zeros.
 *
 * @throws {HearthNetLocalError} `invalid_capability_version` for anything else (`"1"`, `"1.0.0"`, `"01.0"`,
 *   `"v1.0"`).
 * @example
 * ```ts
 * parseCapabilityVersion('1.10'); // { major: 1, minor: 10 }
 * ```
 */
export function parseCapabilityVersion(version: string): CapabilityVersion {
  const match = typeof version === 'string' ? versionSyntax.exec(version) : null;
  const major = Number(match?.[1]);
  const minor = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(major) || !Number.isSafeInteger(minor)) {
    throw new HearthNetLocalError(
      'invalid_capability_version',
      `capability version must be "X.Y" (non-negative integers, no leading zeros), got ${describeValue(version)}`,
      { details: { value: version } },
    );
  }
  return { major, minor };
}

/**
 * Parses `name@X.Y`.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` for a malformed name; `invalid_capability_version`
 *   for a missing or malformed version.
 * @example
 * ```ts
 * parseCapabilityRef('llm.chat@1.0'); // { name: 'llm.chat', version: '1.0' }
 * ```
 */
export function parseCapabilityRef(ref: string): CapabilityRef {
  const [name, version] = splitAt(ref);
  if (version.startsWith('>=')) {
    throw new HearthNetLocalError(
      'invalid_capability_version',
      `an offered capability names one version, got ${describeValue(ref)}`,
      { details: { value: ref } },
    );
  }
  parseCapabilityName(name);
  parseCapabilityVersion(version);
  return { name, version };
}

/**
 * Parses a requirement: `name@>=A.B`, or `name@A.B`, which means the same (a request names the
 * lowest version it can use; the `X-HearthNet-Capability-Version` header carries a plain `A.B`).
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` for a malformed name; `invalid_capability_version`
 *   for a missing or malformed version.
 * @example
 * ```ts
 * parseCapabilityRequirement('llm.chat@>=1.2'); // { name: 'llm.chat', minimum: '1.2' }
 * ```
 */
export function parseCapabilityRequirement(requirement: string): CapabilityRequirement {
  const [name, version] = splitAt(requirement);
  const minimum = version.startsWith('>=') ? version.slice(2) : version;
  parseCapabilityName(name);
  parseCapabilityVersion(minimum);
  return { name, minimum };
}

/**
 * Whether an offered version satisfies a requested minimum (contract §2.1): same major, offered
 * minor ≥ requested minor.
 *
 * @throws {HearthNetLocalError} `invalid_capability_version` when either version is malformed.
 * @example
 * ```ts
 * isVersionCompatible('1.2', '1.4'); // true
 * isVersionCompatible('1.2', '2.0'); // false
 * ```
 */
export function isVersionCompatible(minimum: string, offered: string): boolean {
  const wanted = parseCapabilityVersion(minimum);
  const have = parseCapabilityVersion(offered);
  return have.major === wanted.major && have.minor >= wanted.minor;
}

/**
 * Whether an offered capability satisfies a requirement: the same name, and a compatible version
 * (contract §2.1). Strings are parsed with `parseCapabilityRequirement` and
 * `parseCapabilityRef`.
 *
 * @throws {HearthNetLocalError} `invalid_capability_name` or `invalid_capability_version` for malformed
 *   input.
 * @example
 * ```ts
 * satisfies('llm.chat@>=1.0', 'llm.chat@1.3'); // true
 * satisfies('llm.chat@>=1.4', 'llm.chat@1.3'); // false
 * ```
 */
export function satisfies(
  requirement: string | CapabilityRequirement,
  offered: string | CapabilityRef,
): boolean {
  const wanted = typeof requirement === 'string' ? parseCapabilityRequirement(requirement) : requirement;
  const have = typeof offered === 'string' ? parseCapabilityRef(offered) : offered;
  return wanted.name === have.name && isVersionCompatible(wanted.minimum, have.version);
}

/** Orders versions by major, then minor: negative, zero or positive like a sort comparator. */
export function compareCapabilityVersions(a: string, b: string): number {
  const left = parseCapabilityVersion(a);
  const right = parseCapabilityVersion(b);
  return left.major - right.major || left.minor - right.minor;
}

function splitAt(value: string): [string, string] {
  const at = typeof value === 'string' ? value.lastIndexOf('@') : -1;
  if (at === -1) {
    throw new HearthNetLocalError(
      'invalid_capability_version',
      `expected "name@version", got ${describeValue(value)}`,
      {
        details: { value },
      },
    );
  }
  return [value.slice(0, at), value.slice(at + 1)];
}
