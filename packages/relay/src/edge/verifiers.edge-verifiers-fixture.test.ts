import { describe, expect, it } from 'vitest';
import fixture from '../../../conformance/fixtures/relay/edge-verifiers.json' with { type: 'json' };
import { RelayError } from '../errors.js';
import { type EdgeRequest, verifyDiscordInteraction, verifyTwilioWebhook } from './verifiers.js';
import { encryptWeComReply, verifyWeComCallback } from './verifiers-wecom.js';

interface FixtureOptions {
  readonly public_key?: string;
  readonly auth_token?: string;
  readonly token?: string;
  readonly encoding_aes_key?: string;
  readonly corp_id?: string;
  readonly max_skew_seconds?: number;
  readonly timestamp?: number;
  readonly nonce?: string;
  readonly random_hex?: string;
}

interface VerifyCase {
  readonly id: string;
  readonly operation: 'verify';
  readonly provider: 'discord' | 'twilio' | 'wecom';
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: readonly (readonly [string, string])[];
    readonly body_b64: string;
  };
  readonly options: FixtureOptions;
  readonly now: number;
  readonly expected?: Readonly<Record<string, unknown>>;
  readonly error?: string;
}

interface EncryptReplyCase {
  readonly id: string;
  readonly operation: 'encrypt_reply';
  readonly message: string;
  readonly options: FixtureOptions;
  readonly expected: Readonly<Record<string, unknown>>;
}

const cases = fixture.cases as unknown as readonly (VerifyCase | EncryptReplyCase)[];

function edgeRequest({ request }: VerifyCase): EdgeRequest {
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  return {
    method: request.method,
    url: request.url,
    headers,
    body: new Uint8Array(Buffer.from(request.body_b64, 'base64')),
  };
}

function weComOptions(options: FixtureOptions) {
  return { token: options.token!, encodingAesKey: options.encoding_aes_key!, corpId: options.corp_id! };
}

/** The verifier's result in the fixture's snake_case form (the raw body is left out). */
function verify(c: VerifyCase): Readonly<Record<string, unknown>> {
  const request = edgeRequest(c);
  const clock = { now: c.now, maxSkewSeconds: c.options.max_skew_seconds };
  switch (c.provider) {
    case 'discord': {
      const { interaction, timestamp } = verifyDiscordInteraction(request, {
        publicKey: c.options.public_key!,
        ...clock,
      });
      return { interaction, timestamp };
    }
    case 'twilio': {
      const hook = verifyTwilioWebhook(request, { authToken: c.options.auth_token! });
      return hook.kind === 'form'
        ? { kind: 'form', params: hook.params, signed_url: hook.signedUrl }
        : { kind: 'json', json: hook.json, signed_url: hook.signedUrl };
    }
    case 'wecom': {
      const callback = verifyWeComCallback(request, { ...weComOptions(c.options), ...clock });
      return callback.kind === 'url_verification'
        ? { kind: callback.kind, echo: callback.echo, timestamp: callback.timestamp, nonce: callback.nonce }
        : {
            kind: callback.kind,
            message: callback.message,
            timestamp: callback.timestamp,
            nonce: callback.nonce,
          };
    }
  }
}

function refusalCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError) return error.code;
    throw error;
  }
  throw new Error('expected the verifier to refuse with a RelayError');
}

describe('edge-verifiers.json', () => {
  it('has cases of every provider and operation', () => {
    const kinds = new Set(cases.map((c) => (c.operation === 'verify' ? c.provider : c.operation)));
    expect([...kinds].sort()).toEqual(['discord', 'encrypt_reply', 'twilio', 'wecom']);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    if (c.operation === 'encrypt_reply') {
      const reply = encryptWeComReply(c.message, {
        ...weComOptions(c.options),
        timestamp: c.options.timestamp,
        nonce: c.options.nonce,
        random: new Uint8Array(Buffer.from(c.options.random_hex!, 'hex')),
      });
      expect({
        encrypt: reply.encrypt,
        msg_signature: reply.msgSignature,
        timestamp: reply.timestamp,
        nonce: reply.nonce,
        xml: reply.xml,
      }).toEqual(c.expected);
    } else if (c.error !== undefined) {
      expect(refusalCode(() => verify(c))).toBe(c.error);
    } else {
      expect(verify(c)).toEqual(c.expected);
    }
  });
});
