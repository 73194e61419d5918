import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { signPayload } from '../crypto/payload-signature.js';
import { PythonFloat, parseReferenceJson } from './reference-json.js';
import {
  parseReferenceServedManifest,
  verifyReferenceCommunityManifest,
  verifyReferenceNodeManifest,
} from './reference-manifests.js';

const root = keyPairFromSeed(new Uint8Array(32).fill(1));
const issued = Date.UTC(2026, 4, 26, 8, 14, 22);

const nodeManifest = signPayload(
  {
    version: 1,
    node_id: root.nodeId,
    display_name: 'pc',
    community_id: root.nodeId,
    profile: 'anchor',
    endpoints: [],
    capabilities: [],
    issued_at: '2026-05-26T08:14:22Z',
    expires_at: '2026-05-26T08:14:52Z',
    contract_version: '1.0',
  },
  root,
);

describe('reference manifests', () => {
  it('accepts a library-signed manifest up to, not at, expires_at', () => {
    expect(verifyReferenceNodeManifest(nodeManifest, { now: issued + 29_999 })).toEqual({
      valid: true,
      manifest: nodeManifest,
    });
    expect(verifyReferenceNodeManifest(nodeManifest, { now: issued + 30_000 })).toMatchObject({
      reason: 'expired',
    });
  });

  it('verifies a manifest read with parseReferenceJson, whose integral floats are PythonFloat', () => {
    const withHardware = signPayload(
      { ...nodeManifest, hardware: { gpu: null, ram_gb: 16, cpu_cores: 8, disk_free_gb: 120.5 } },
      root,
    );
    // What the reference writes: `16.0` for a float field, which parseReferenceJson keeps as a float.
    const text = JSON.stringify(withHardware).replace('"ram_gb":16', '"ram_gb":16.0');
    const parsed = parseReferenceJson(text) as { hardware: { ram_gb: unknown } };
    expect(parsed.hardware.ram_gb).toBeInstanceOf(PythonFloat);
    expect(verifyReferenceNodeManifest(parsed, { now: issued })).toMatchObject({ valid: true });
    const tampered = parseReferenceJson(text.replace('"ram_gb":16.0', '"ram_gb":32.0'));
    expect(verifyReferenceNodeManifest(tampered, { now: issued })).toMatchObject({
      reason: 'invalid_signature',
    });
  });

  it('does not judge the lifetime or contract_version, as the reference does not', () => {
    const odd = signPayload(
      { ...nodeManifest, contract_version: '9.9', expires_at: '2026-05-26T09:00:00Z' },
      root,
    );
    expect(verifyReferenceNodeManifest(odd, { now: issued })).toMatchObject({ valid: true });
  });

  it('reads timestamps the reference way: trailing Zs stripped, offsets cut, µs allowed', () => {
    const variant = signPayload({ ...nodeManifest, expires_at: '2026-05-26T08:14:52.500000ZZ' }, root);
    expect(verifyReferenceNodeManifest(variant, { now: issued + 30_499 })).toMatchObject({ valid: true });
    const offset = signPayload({ ...nodeManifest, expires_at: '2026-05-26T08:14:52+02:00' }, root);
    expect(verifyReferenceNodeManifest(offset, { now: issued + 30_000 })).toMatchObject({
      reason: 'expired',
    });
    const garbage = signPayload({ ...nodeManifest, expires_at: 'soon' }, root);
    expect(verifyReferenceNodeManifest(garbage, { now: issued })).toMatchObject({
      reason: 'schema_error',
      path: '$.expires_at',
    });
  });

  it.each([
    ['null', null, 'schema_error'],
    ['an array', [], 'schema_error'],
    [
      'a mistyped field under a broken signature',
      { ...nodeManifest, endpoints: 'none' },
      'invalid_signature',
    ],
  ])('refuses %s without throwing', (_name, value, reason) => {
    expect(verifyReferenceNodeManifest(value, { now: issued })).toMatchObject({ valid: false, reason });
    expect(verifyReferenceCommunityManifest(value, { now: issued })).toMatchObject({ valid: false });
  });

  it("checks in the reference's order: key, signature, expiry, then the field types it never checks", () => {
    const mistyped = signPayload({ ...nodeManifest, display_name: 5 }, root);
    expect(verifyReferenceNodeManifest(mistyped, { now: issued })).toMatchObject({
      reason: 'schema_error',
      path: '$.display_name',
    });
    expect(verifyReferenceNodeManifest(mistyped, { now: issued + 30_000 })).toMatchObject({
      reason: 'expired',
    });
    const badExpiry = signPayload({ ...nodeManifest, expires_at: 5, display_name: 5 }, root);
    expect(verifyReferenceNodeManifest(badExpiry, { now: issued })).toMatchObject({
      reason: 'schema_error',
      path: '$.expires_at',
    });
  });

  it('reads the served form and refuses anything else with a typed error', () => {
    const served = {
      version: 1,
      contract_version: '1.0',
      node_id: 'local-1a2b3c4d',
      display_name: 'hf',
      community_id: 'ed25519:hf-space-community',
      profile: 'anchor',
      capabilities: [],
    };
    expect(parseReferenceServedManifest(served)).toEqual(served);
    expect(() => parseReferenceServedManifest({ ...served, capabilities: [{ name: 1 }] })).toThrow(
      expect.objectContaining({ code: 'malformed_reference_manifest', path: '$.capabilities[0].name' }),
    );
  });
});
