import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { verifyPayload } from '../crypto/payload-signature.js';
import {
  type RequestEnvelopeFields,
  requestEnvelopeBytes,
  responseEnvelopeBytes,
  signRequestEnvelope,
  signResponseEnvelope,
  verifyRequestEnvelope,
  verifyResponseEnvelope,
} from './envelope.js';

const alice = keyPairFromSeed(new Uint8Array(32).fill(1));
const bob = keyPairFromSeed(new Uint8Array(32).fill(2));
const utf8 = new TextDecoder();

const fields: RequestEnvelopeFields = {
  capability: 'market.post',
  version: '1.0',
  requestId: '01JH4Z3Q8M9X2V7K5T1C0RWEYD',
  from: alice.nodeId,
  community: bob.nodeId,
  timestamp: '2026-05-26T08:14:22Z',
  body: { params: {}, input: { client_id: 'c1', category: 'offer', title: 'Wasser', price: 1.0 } },
};

describe('request envelope (contract §5.1)', () => {
  it('covers exactly the seven fields, keys sorted, body canonicalised', () => {
    expect(utf8.decode(requestEnvelopeBytes(fields))).toBe(
      `{"body":{"input":{"category":"offer","client_id":"c1","price":1,"title":"Wasser"},"params":{}},` +
        `"capability":"market.post","community":"${bob.nodeId}","from":"${alice.nodeId}",` +
        `"request_id":"01JH4Z3Q8M9X2V7K5T1C0RWEYD","timestamp":"2026-05-26T08:14:22Z","version":"1.0"}`,
    );
  });

  it('signs what verifyPayload accepts over the synthetic envelope, and verifies it back', () => {
    const { signature } = signRequestEnvelope(fields, alice);
    const envelope = JSON.parse(utf8.decode(requestEnvelopeBytes(fields)));
    expect(verifyPayload({ ...envelope, signature }, alice.nodeId)).toEqual({ valid: true });
    expect(verifyRequestEnvelope(fields, signature)).toEqual({ valid: true });
  });

  it('returns the body with numbers normalised, and that body verifies after a JSON round trip', () => {
    const lossy = { ...fields, body: { params: {}, input: { x: 0.123456789 } } };
    const { signature, body } = signRequestEnvelope(lossy, alice);
    expect(body).toEqual({ params: {}, input: { x: 0.123457 } });
    const received = JSON.parse(canonicalJsonString(body));
    expect(verifyRequestEnvelope({ ...lossy, body: received }, signature)).toEqual({ valid: true });
  });

  it.each([
    ['capability', { capability: 'market.list' }],
    ['version', { version: '1.1' }],
    ['request id', { requestId: 'other' }],
    ['community', { community: alice.nodeId }],
    ['timestamp', { timestamp: '2026-05-26T08:14:23Z' }],
    ['body', { body: { params: {}, input: {} } }],
  ])('rejects a request whose %s changed after signing', (_, change) => {
    const { signature } = signRequestEnvelope(fields, alice);
    const verdict = verifyRequestEnvelope({ ...fields, ...change }, signature);
    expect(verdict).toMatchObject({ valid: false, reason: 'signature_mismatch' });
  });

  it('rejects a signature checked against another sender', () => {
    const { signature } = signRequestEnvelope(fields, alice);
    expect(verifyRequestEnvelope({ ...fields, from: bob.nodeId }, signature).valid).toBe(false);
  });

  it('refuses to sign for another node id, a malformed timestamp or missing fields', () => {
    expect(() => signRequestEnvelope({ ...fields, from: bob.nodeId }, alice)).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
    expect(() => signRequestEnvelope({ ...fields, timestamp: '2026-05-26 08:14:22' }, alice)).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
    const { body: _, ...withoutBody } = fields;
    expect(() => signRequestEnvelope(withoutBody as RequestEnvelopeFields, alice)).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
    expect(() => requestEnvelopeBytes({ ...fields, capability: 7 as unknown as string })).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
  });

  it('never throws when verifying malformed input', () => {
    expect(verifyRequestEnvelope(null as unknown as RequestEnvelopeFields, 'x')).toMatchObject({
      valid: false,
    });
    expect(verifyRequestEnvelope(fields, 'ed25519:AAAA')).toMatchObject({
      valid: false,
      reason: 'malformed_signature',
    });
  });
});

describe('response envelope (contract §5.2)', () => {
  const response = {
    capability: 'market.post',
    version: '1.0',
    requestId: fields.requestId,
    from: bob.nodeId,
    timestamp: '2026-05-26T08:14:23Z',
    status: 200,
    body: { output: { event_id: 'e1', lamport: 4 }, meta: { ms: 6 } },
  };

  it('binds the request id and status, and verifies under the responder key', () => {
    const { signature } = signResponseEnvelope(response, bob);
    expect(utf8.decode(responseEnvelopeBytes(response))).toContain(
      '"request_id":"01JH4Z3Q8M9X2V7K5T1C0RWEYD","status":200',
    );
    expect(verifyResponseEnvelope(response, signature)).toEqual({ valid: true });
    expect(verifyResponseEnvelope({ ...response, requestId: 'another' }, signature).valid).toBe(false);
    expect(verifyResponseEnvelope({ ...response, status: 201 }, signature).valid).toBe(false);
  });

  it('can never pass as a request signature', () => {
    const { signature } = signResponseEnvelope(response, bob);
    const asRequest = { ...fields, from: bob.nodeId, body: response.body, timestamp: response.timestamp };
    expect(verifyRequestEnvelope(asRequest, signature).valid).toBe(false);
  });

  it('refuses a status that is not an HTTP status', () => {
    expect(() => responseEnvelopeBytes({ ...response, status: 42 })).toThrow(
      expect.objectContaining({ code: 'invalid_envelope' }),
    );
  });
});
