import tokensFixture from '../../../fixtures/relay/tokens.json' with { type: 'json' };
import { assertEqual, assertRejects, assertTrue } from '../../assert.js';
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
import { levelForTags } from './case-level.js';
import { RELAY_SUITE_VERSION, RELAY_TOKENS_SUITE_VERSION } from './suite-version.js';

/**
 * A token verification verdict. `valid` is always checked; every other field is checked when present
 * (and an accepting verdict must carry no `reason` and no close):
 * `gatewayId`, `expiresAt` (`0` = never) and `secretIndex` (index in `secrets` of the signing secret)
 * of an accepted token, `reason` (`missing`, `malformed`, `no_usable_secret`, `bad_signature`,
 * `expired`) and the WebSocket close (`closeCode` 4401, `closeReason` `expired` | `unauthorized`) of a
 * refused one.
 */
export interface RelayTokenVerdict {
  readonly valid: boolean;
  readonly gatewayId?: string;
  readonly expiresAt?: number;
  readonly secretIndex?: number;
  readonly reason?: string;
  readonly closeCode?: number;
  readonly closeReason?: string;
}

/** The clock (unix seconds) and, when set, the expiry of a token being made. */
export interface TokenMintOptions {
  /** Seconds until expiry; `0` or less never expires. Absent: the function's default. */
  readonly ttlSeconds?: number;
  readonly now: number;
}

/** The channel-token functions under test. `mint` and `verify` are required; the rest enable more cases. */
export interface RelayTokenImplementation {
  /** The WS upgrade token for `gatewayId` (the gateway's `make_upgrade_token`, default TTL 300 s). */
  mint(gatewayId: string, secret: string, options: TokenMintOptions): string | Promise<string>;
  /** Verifies `token` against the rotation list `secrets` at `now`, allowing `skewSeconds` past expiry. */
  verify(
    token: string,
    secrets: readonly string[],
    options: { readonly now: number; readonly skewSeconds?: number },
  ): RelayTokenVerdict | Promise<RelayTokenVerdict>;
  /** The gateway's generic `make_token(payload, secret, ttl_seconds=0)`. Capability `make-token`. */
  makeToken?(payload: string, secret: string, options: TokenMintOptions): string | Promise<string>;
  /** Lowercase hex HMAC-SHA-256 of `message` keyed with the UTF-8 bytes of `secret`. Capability `sign`. */
  sign?(message: string, secret: string): string | Promise<string>;
  /** The payload of a token, read without checking its signature. Capability `peek`. */
  peekGatewayId?(token: string): string | Promise<string>;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'relay/tokens.json';
const SUITE_NAME = 'relay.tokens';
const SECTION_MINT = 'relay-reference §11.1';
const SECTION_VERIFY = 'relay-reference §11.2, §12';
const fixture = readFixtureFile(tokensFixture, FIXTURE_NAME);
/** The fixture cases `relay.tokens` 1.1.0 added; the others date from 1.0.0. */
const ADDED_IN_1_1: ReadonlySet<string> = new Set([
  'make-upgrade-token-exp-max-safe-integer',
  'peek-exp-max-safe-integer',
  'peek-payload-leading-bom',
  'peek-empty',
  'peek-not-base64url',
  'peek-two-parts',
  'peek-invalid-utf8',
  'peek-exp-beyond-safe-integer',
  'peek-signature-65-hex',
  'peek-signature-not-hex',
  'peek-signature-uppercase',
  'verify-same-secret-twice-first-index',
  'make-upgrade-token-unpaired-surrogate-refused',
  'make-upgrade-token-exp-beyond-safe-integer-refused',
]);

/** The members of a RelayTokenImplementation that provide each capability. */
const TOKEN_MEMBERS = {
  'make-token': ['makeToken'],
  sign: ['sign'],
  peek: ['peekGatewayId'],
} as const satisfies CapabilityMembers<RelayTokenImplementation>;

/**
 * The relay channel token (WS upgrade bearer) from `fixtures/relay/tokens.json`: minting byte for byte
 * (including the frozen connector vector), HMAC signatures, verification verdicts with rotation lists,
 * expiry at the boundary, tampering and malformed tokens with their 4401 close reasons, and peeking at
 * the payload. Cases tagged `sdk` or `stricter-than-reference` are `recommended`.
 *
 * @example
 * ```ts
 * import { mintRelayToken, relayAuthClose, verifyRelayToken } from '@agentwire/relay';
 * const suite = relayTokenSuite({
 *   mint: (gatewayId, secret, options) => mintRelayToken(gatewayId, secret, options),
 *   verify: (token, secrets, options) => {
 *     const result = verifyRelayToken(token, secrets, options);
 *     const close = relayAuthClose(result);
 *     return close ? { ...result, closeCode: close.code, closeReason: close.reason } : result;
 *   },
 * });
 * ```
 */
export function relayTokenSuite(
  implementation: RelayTokenImplementation,
): ConformanceSuite<RelayTokenImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, TOKEN_MEMBERS));
  return {
    name: SUITE_NAME,
    version: RELAY_TOKENS_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.map(caseFor),
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(TOKEN_MEMBERS, 'RelayTokenImplementation'),
  };
}

type TokenCase = ConformanceCase<RelayTokenImplementation>;

function caseFor(entry: FixtureCase, index: number): TokenCase {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const common = {
    id: `${SUITE_NAME}.${entry.id}`,
    level: levelForTags(entry.tags),
    since: ADDED_IN_1_1.has(entry.id) ? RELAY_TOKENS_SUITE_VERSION : RELAY_SUITE_VERSION,
  } as const;
  switch (entry['operation']) {
    case 'make_token': {
      const payload = readString(entry['payload'], `${location}.payload`);
      const secret = readString(entry['secret'], `${location}.secret`);
      const options = mintOptions(entry, location);
      const token = readString(entry['token'], `${location}.token`);
      return {
        ...common,
        title: `make_token of ${entry.id}`,
        section: SECTION_MINT,
        requires: 'make-token',
        run: async (impl) => assertEqual(await impl.makeToken?.(payload, secret, options), token, 'token'),
      };
    }
    case 'make_upgrade_token':
      return upgradeTokenCase(entry, location, { ...common, section: SECTION_MINT });
    case 'sign': {
      const message = readString(entry['message'], `${location}.message`);
      const secret = readString(entry['secret'], `${location}.secret`);
      const signature = readString(entry['signature'], `${location}.signature`);
      return {
        ...common,
        title: `HMAC-SHA-256 signature of ${entry.id}`,
        section: SECTION_MINT,
        requires: 'sign',
        run: async (impl) => assertEqual(await impl.sign?.(message, secret), signature, 'signature'),
      };
    }
    case 'verify':
      return verifyCase(entry, location, { ...common, section: SECTION_VERIFY });
    case 'peek':
      return peekCase(entry, location, { ...common, section: SECTION_VERIFY });
    default:
      throw invalidFixtureError(
        `${location}.operation`,
        'expected "make_token", "make_upgrade_token", "sign", "verify" or "peek"',
      );
  }
}

type CommonFields = Pick<TokenCase, 'id' | 'section' | 'level' | 'since'>;

function upgradeTokenCase(entry: FixtureCase, location: string, common: CommonFields): TokenCase {
  const gatewayId = readString(entry['gateway_id'], `${location}.gateway_id`);
  const secret = readString(entry['secret'], `${location}.secret`);
  const options = mintOptions(entry, location);
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `refuses to mint ${entry.id} (${code})`,
      run: async (impl) => {
        const error = await assertRejects(
          () => impl.mint(gatewayId, secret, options),
          `minting must be refused (${code})`,
        );
        if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
      },
    };
  }
  const token = readString(entry['token'], `${location}.token`);
  return {
    ...common,
    title: `upgrade token of ${entry.id}`,
    run: async (impl) => assertEqual(await impl.mint(gatewayId, secret, options), token, 'token'),
  };
}

function verifyCase(entry: FixtureCase, location: string, common: CommonFields): TokenCase {
  const token = readString(entry['token'], `${location}.token`);
  const secrets = readStringArray(entry['secrets'], `${location}.secrets`);
  const now = readNumber(entry['now'], `${location}.now`);
  const options =
    'skew_seconds' in entry
      ? { now, skewSeconds: readNumber(entry['skew_seconds'], `${location}.skew_seconds`) }
      : { now };
  const expected = readObject(entry['expected'], `${location}.expected`);
  const valid = expected['valid'];
  if (typeof valid !== 'boolean')
    throw invalidFixtureError(`${location}.expected.valid`, 'expected a boolean');
  // Fixture field → verdict field, for the fields the verdict may carry.
  const fields: readonly (readonly [string, keyof RelayTokenVerdict])[] = valid
    ? [
        ['gateway_id', 'gatewayId'],
        ['expires_at', 'expiresAt'],
        ['secret_index', 'secretIndex'],
      ]
    : [
        ['reason', 'reason'],
        ['close_code', 'closeCode'],
        ['close_reason', 'closeReason'],
      ];
  return {
    ...common,
    title: `verification ${valid ? 'accepts' : `refuses (${String(expected['reason'])})`}: ${entry.id}`,
    run: async (impl) => {
      const verdict = await impl.verify(token, secrets, options);
      assertTrue(verdict !== null && typeof verdict === 'object', 'verify must return a verdict object');
      assertEqual(verdict.valid, valid, 'verification result');
      for (const [fixtureField, verdictField] of fields) {
        if (verdict[verdictField] !== undefined) {
          assertEqual(verdict[verdictField], expected[fixtureField], verdictField);
        }
      }
      if (valid) {
        for (const field of ['reason', 'closeCode', 'closeReason'] as const) {
          assertEqual(verdict[field], undefined, `${field} of an accepting verdict`);
        }
      }
    },
  };
}

function peekCase(entry: FixtureCase, location: string, common: CommonFields): TokenCase {
  const token = readString(entry['token'], `${location}.token`);
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `peeking refuses ${entry.id} (${code})`,
      requires: 'peek',
      run: async (impl) => {
        const error = await assertRejects(() => impl.peekGatewayId?.(token), `peeking must fail (${code})`);
        if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
      },
    };
  }
  const gatewayId = readString(entry['gateway_id'], `${location}.gateway_id`);
  return {
    ...common,
    title: `peeks the gateway id of ${entry.id}`,
    requires: 'peek',
    run: async (impl) => assertEqual(await impl.peekGatewayId?.(token), gatewayId, 'gateway id'),
  };
}

function mintOptions(entry: FixtureCase, location: string): TokenMintOptions {
  const now = readNumber(entry['now'], `${location}.now`);
  return 'ttl_seconds' in entry
    ? { now, ttlSeconds: readNumber(entry['ttl_seconds'], `${location}.ttl_seconds`) }
    : { now };
}

function readNumber(value: unknown, location: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidFixtureError(location, 'expected a finite number');
  }
  return value;
}
