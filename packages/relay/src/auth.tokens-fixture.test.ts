import { describe, expect, it } from 'vitest';
import tokensFixture from '../../conformance/fixtures/relay/tokens.json' with { type: 'json' };
import {
  makeToken,
  mintRelayToken,
  peekRelayTokenGatewayId,
  relayAuthClose,
  relaySign,
  verifyRelayToken,
} from './auth.js';
import { RelayError } from './errors.js';

interface TokenCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly operation: 'make_token' | 'make_upgrade_token' | 'sign' | 'verify' | 'peek';
  readonly payload?: string;
  readonly gateway_id?: string;
  readonly secret?: string;
  readonly secrets?: readonly string[];
  readonly ttl_seconds?: number;
  readonly now?: number;
  readonly skew_seconds?: number;
  readonly token?: string;
  readonly message?: string;
  readonly signature?: string;
  readonly expected?: Readonly<Record<string, unknown>>;
  readonly error?: string;
}

const cases = tokensFixture.cases as readonly TokenCase[];

/** The codes the channel-token functions throw. */
const AUTH_ERROR_CODES: readonly string[] = [
  'relay_token_invalid_argument',
  'relay_token_unpaired_surrogate',
  'relay_secret_empty',
  'relay_token_malformed',
];

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError && AUTH_ERROR_CODES.includes(error.code)) return error.code;
    throw error;
  }
  throw new Error('expected a channel-token RelayError');
}

const run: Record<TokenCase['operation'], (c: TokenCase) => void> = {
  make_token: (c) => {
    expect(makeToken(c.payload!, c.secret!, c.ttl_seconds, { now: c.now })).toBe(c.token);
  },
  make_upgrade_token: (c) => {
    const mint = () => mintRelayToken(c.gateway_id!, c.secret!, { now: c.now, ttlSeconds: c.ttl_seconds });
    if (c.error !== undefined) expect(errorCode(mint)).toBe(c.error);
    else expect(mint()).toBe(c.token);
  },
  sign: (c) => {
    expect(relaySign(c.message!, c.secret!)).toBe(c.signature);
  },
  verify: (c) => {
    const result = verifyRelayToken(c.token, c.secrets!, { now: c.now, skewSeconds: c.skew_seconds });
    if (result.valid) {
      expect({
        valid: true,
        gateway_id: result.gatewayId,
        expires_at: result.expiresAt,
        secret_index: result.secretIndex,
      }).toEqual(c.expected);
    } else {
      const close = relayAuthClose(result)!;
      expect({
        valid: false,
        reason: result.reason,
        close_code: close.code,
        close_reason: close.reason,
      }).toEqual(c.expected);
    }
  },
  peek: (c) => {
    if (c.error !== undefined) expect(errorCode(() => peekRelayTokenGatewayId(c.token!))).toBe(c.error);
    else expect(peekRelayTokenGatewayId(c.token!)).toBe(c.gateway_id);
  },
};

describe('fixtures/relay/tokens.json', () => {
  it('has unique ids and cases for every operation', () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(new Set(cases.map((c) => c.operation))).toEqual(new Set(Object.keys(run)));
  });

  it('holds the frozen connector vector of the reference tests', () => {
    const frozen = cases.find((c) => c.id === 'make-token-frozen-connector-vector');
    expect(frozen?.token).toBe(
      'Z3ctaW5zdGFuY2UtMTowOjM3YWE3YjE0NWU4NzY0ZDQwM2JhOWM2MzlmMjMwZGQ2M2RlOGVkOTliODhmZWQzNmFhMDI2MjVhOGE3ZTM1NjQ',
    );
  });

  for (const c of cases) {
    it(c.id, () => run[c.operation](c));
  }
});
