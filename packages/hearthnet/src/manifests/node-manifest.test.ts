import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadRequestError, ExpiredError, InvalidSignatureError } from '../capabilities/hearthnet-errors.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { signPayload } from '../crypto/payload-signature.js';
import { hexDecode } from '../encoding.js';
import type { NodeManifestInput } from './node-manifest.js';
import {
  buildNodeManifest,
  formatTimestamp,
  InMemoryPinStore,
  NodeManifestVerifier,
  parseTimestamp,
  tryParseTimestamp,
  verifyNodeManifest,
} from './node-manifest.js';

const node = keyPairFromSeed(hexDecode('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'));
const other = keyPairFromSeed(hexDecode('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'));
const NOW = Date.UTC(2026, 4, 26, 8, 14, 22, 500);
const input: NodeManifestInput = {
  display_name: 'garage-pc',
  community_id: other.nodeId,
  profile: 'hearth',
  endpoints: [{ transport: 'https', host: '127.0.0.1', port: 7080 }],
  capabilities: [],
};

describe('buildNodeManifest', () => {
  it('issues in whole seconds with a 30 s lifetime and verifies', () => {
    const manifest = buildNodeManifest(input, node, { now: NOW });
    expect(manifest).toMatchObject({
      version: 1,
      contract_version: '1.0',
      node_id: node.nodeId,
      issued_at: '2026-05-26T08:14:22Z',
      expires_at: '2026-05-26T08:14:52Z',
    });
    expect(verifyNodeManifest(manifest, { now: NOW })).toMatchObject({
      valid: true,
      publicKey: node.publicKey,
    });
  });

  it.each([
    [{ profile: 'laptop' }, '$.profile'],
    [{ community_id: 'ed25519:short' }, '$.community_id'],
    [{ endpoints: [{ transport: 'https', host: 'h', port: 70_000 }] }, '$.endpoints[0].port'],
    [
      {
        capabilities: [
          {
            name: 'llm.chat',
            version: '1',
            stability: 'stable',
            schema_hash: 'x',
            params: {},
            max_concurrent: 1,
          },
        ],
      },
      '$.capabilities[0].version',
    ],
    [{ uptime_seconds: -1 }, '$.uptime_seconds'],
  ])('refuses input %j at %s', (override, path) => {
    expect(() =>
      buildNodeManifest({ ...input, ...override } as NodeManifestInput, node, { now: NOW }),
    ).toThrow(expect.objectContaining({ name: 'HearthNetLocalError', path }));
  });

  it('refuses an unusable time', () => {
    expect(() => buildNodeManifest(input, node, { now: Number.NaN })).toThrow(
      expect.objectContaining({ code: 'invalid_timestamp' }),
    );
    expect(() => buildNodeManifest(input, node, { now: 1e17 })).toThrow(
      expect.objectContaining({ code: 'invalid_timestamp' }),
    );
    expect(() => buildNodeManifest(null as never, node)).toThrow(
      expect.objectContaining({ code: 'invalid_node_manifest' }),
    );
  });
});

describe('verifyNodeManifest', () => {
  const manifest = buildNodeManifest(input, node, { now: NOW });
  const expiresAt = Date.UTC(2026, 4, 26, 8, 14, 52);

  it('is valid on [issued_at, expires_at) and expired from expires_at on, clock skew aside', () => {
    expect(verifyNodeManifest(manifest, { now: expiresAt - 1 }).valid).toBe(true);
    expect(verifyNodeManifest(manifest, { now: expiresAt })).toMatchObject({
      reason: 'expired',
      code: 'expired',
    });
    expect(verifyNodeManifest(manifest, { now: expiresAt + 999, clockSkewMs: 1000 }).valid).toBe(true);
  });

  it('refuses non-objects and bad options without a TypeError', () => {
    for (const value of [null, 'x', [], 1]) {
      expect(verifyNodeManifest(value, { now: NOW })).toMatchObject({
        reason: 'malformed',
        code: 'bad_request',
      });
    }
    expect(() => verifyNodeManifest(manifest, { now: Number.NaN })).toThrow(
      expect.objectContaining({ code: 'invalid_timestamp' }),
    );
    expect(() => verifyNodeManifest(manifest, { now: NOW, clockSkewMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_timestamp' }),
    );
  });

  it('checks the 30 s rule on millisecond timestamps too', () => {
    const ms = signPayload(
      { ...manifest, issued_at: '2026-05-26T08:14:22.500Z', expires_at: '2026-05-26T08:14:52.500Z' },
      node,
    );
    expect(verifyNodeManifest(ms, { now: NOW }).valid).toBe(true);
    const off = signPayload({ ...ms, expires_at: '2026-05-26T08:14:52.501Z' }, node);
    expect(verifyNodeManifest(off, { now: NOW })).toMatchObject({ reason: 'invalid_lifetime' });
  });
});

describe('NodeManifestVerifier', () => {
  it('pins the first key seen and refuses a different one with invalid_signature', async () => {
    const pinStore = new InMemoryPinStore();
    const verifier = new NodeManifestVerifier({ pinStore, clock: () => NOW });
    const manifest = buildNodeManifest(input, node, { now: NOW });
    await expect(verifier.accept(manifest)).resolves.toEqual(manifest);
    expect(await pinStore.get(node.nodeId)).toEqual(node.publicKey);
    await pinStore.pin(other.nodeId, node.publicKey);
    const conflicting = buildNodeManifest(input, other, { now: NOW });
    await expect(verifier.accept(conflicting)).rejects.toBeInstanceOf(InvalidSignatureError);
    expect(await verifier.verify(conflicting)).toMatchObject({ reason: 'pinned_key_mismatch' });
  });

  it('pins nothing for a refused manifest and throws the contract error', async () => {
    const pinStore = new InMemoryPinStore();
    const verifier = new NodeManifestVerifier({ pinStore, clock: () => NOW + 60_000 });
    await expect(verifier.accept(buildNodeManifest(input, node, { now: NOW }))).rejects.toBeInstanceOf(
      ExpiredError,
    );
    await expect(verifier.accept({})).rejects.toBeInstanceOf(BadRequestError);
    expect(await pinStore.get(node.nodeId)).toBeUndefined();
  });

  it('keeps the first of two concurrent pins', async () => {
    const pinStore = new InMemoryPinStore();
    const [a, b] = await Promise.all([pinStore.pin('n', node.publicKey), pinStore.pin('n', other.publicKey)]);
    expect(a).toEqual(node.publicKey);
    expect(b).toEqual(node.publicKey);
  });
});

describe('timestamps', () => {
  it('round-trips whole seconds (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799 }), (seconds) => {
        expect(parseTimestamp(formatTimestamp(seconds * 1000 + 999))).toBe(seconds * 1000);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    '2026-05-26T08:14:22+00:00',
    '2026-05-26t08:14:22Z',
    '2026-05-26T08:14:22.1234Z',
    '2026-02-30T00:00:00Z',
    '2026-05-26T24:00:00Z',
    '2026-05-26T08:14:60Z',
    '2026-05-26',
  ])('refuses %s', (text) => {
    expect(tryParseTimestamp(text)).toBeUndefined();
    expect(() => parseTimestamp(text)).toThrow(expect.objectContaining({ code: 'invalid_timestamp' }));
  });
});
