import { describe, expect, it } from 'vitest';
import { BadRequestError, ExpiredError, InvalidSignatureError } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { formatWireTimestamp, type RequestEnvelopeFields, signRequestEnvelope } from './envelope.js';
import { MemorySeenRequestIds, RequestVerifier } from './request-verifier.js';

const alice = keyPairFromSeed(new Uint8Array(32).fill(7));
const NOW = Date.UTC(2026, 4, 26, 8, 14, 22);

function signed(overrides: Partial<RequestEnvelopeFields> = {}) {
  const fields: RequestEnvelopeFields = {
    capability: 'chat.send',
    version: '1.0',
    requestId: `r-${Math.random()}`,
    from: alice.nodeId,
    community: alice.nodeId,
    timestamp: formatWireTimestamp(NOW),
    body: { params: {}, input: { body: 'hi' } },
    ...overrides,
  };
  return { fields, signature: signRequestEnvelope(fields, alice).signature };
}

describe('RequestVerifier', () => {
  const verifier = () => new RequestVerifier({ now: () => NOW });

  it('accepts a fresh signed request once, then refuses the replay with invalid_signature', async () => {
    const v = verifier();
    const { fields, signature } = signed();
    await expect(v.verify(fields, signature)).resolves.toBeUndefined();
    await expect(v.verify(fields, signature)).rejects.toThrow(InvalidSignatureError);
    await expect(v.verify(fields, signature)).rejects.toThrow(/replay/);
  });

  it('refuses a new request with rate_limited while the replay memory is full, instead of forgetting ids', async () => {
    const v = new RequestVerifier({
      now: () => NOW,
      seenRequestIds: new MemorySeenRequestIds({ maxEntries: 1, now: () => NOW }),
    });
    const first = signed();
    await expect(v.verify(first.fields, first.signature)).resolves.toBeUndefined();
    const second = signed();
    await expect(v.verify(second.fields, second.signature)).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 30_001,
    });
    await expect(v.verify(first.fields, first.signature)).rejects.toThrow(/replay/);
  });

  it('refuses unsigned and tampered requests with invalid_signature', async () => {
    const { fields, signature } = signed();
    await expect(verifier().verify(fields, null)).rejects.toThrow(InvalidSignatureError);
    await expect(
      verifier().verify({ ...fields, body: { params: {}, input: {} } }, signature),
    ).rejects.toThrow(InvalidSignatureError);
  });

  it('refuses timestamps outside the window with expired, and accepts the edges', async () => {
    const late = signed({ timestamp: formatWireTimestamp(NOW - 31_000) });
    const early = signed({ timestamp: formatWireTimestamp(NOW + 31_000) });
    const edge = signed({ timestamp: formatWireTimestamp(NOW - 30_000) });
    await expect(verifier().verify(late.fields, late.signature)).rejects.toThrow(ExpiredError);
    await expect(verifier().verify(early.fields, early.signature)).rejects.toThrow(ExpiredError);
    await expect(verifier().verify(edge.fields, edge.signature)).resolves.toBeUndefined();
    const wide = new RequestVerifier({ now: () => NOW, clockSkewMs: 60_000 });
    await expect(wide.verify(late.fields, late.signature)).resolves.toBeUndefined();
  });

  it('does not burn a request id for a request whose signature fails', async () => {
    const v = verifier();
    const { fields, signature } = signed();
    await expect(v.verify({ ...fields, capability: 'chat.history' }, signature)).rejects.toThrow();
    await expect(v.verify(fields, signature)).resolves.toBeUndefined();
  });

  it('answers a signed but malformed timestamp with bad_request', async () => {
    const { fields } = signed();
    const bad = { ...fields, timestamp: 'yesterday' };
    // Sign the malformed envelope by hand: signRequestEnvelope refuses it.
    const { signPayload } = await import('../crypto/payload-signature.js');
    const { requestEnvelope } = await import('./envelope.js');
    const signature = signPayload({ ...requestEnvelope(bad) }, alice).signature;
    await expect(verifier().verify(bad, signature)).rejects.toThrow(BadRequestError);
  });

  it('keeps replays apart per sender and refuses a bad window', async () => {
    expect(() => new RequestVerifier({ clockSkewMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_wire_options' }),
    );
    const bob = keyPairFromSeed(new Uint8Array(32).fill(8));
    const v = verifier();
    const a = signed({ requestId: 'same' });
    const bFields = { ...a.fields, from: bob.nodeId };
    await v.verify(a.fields, a.signature);
    await expect(v.verify(bFields, signRequestEnvelope(bFields, bob).signature)).resolves.toBeUndefined();
  });
});
