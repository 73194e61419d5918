import { pythonFloatRepr } from '@agentwire/internal';
import { describe, expect, it } from 'vitest';
import { loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { hexDecode } from '../encoding.js';
import type { UnsignedEvent } from '../events/event.js';
import { blake3Hasher, blobCid, sha256Hasher } from '../hashing.js';
import {
  contractEventToReference,
  type ReferenceEvent,
  referenceEventIdToUlid,
  referenceEventToContract,
  referenceSigningBytes,
  referenceTimestampToContract,
  signReferenceEvent,
  verifyReferenceEvent,
} from './reference-event.js';
import {
  decodeReferenceInvite,
  encodeReferenceInvite,
  makeReferenceInvite,
  type ReferenceInvite,
  type ReferenceInviteInput,
  verifyReferenceInvite,
} from './reference-invite.js';
import { encodeReferenceSseFrame, parseReferenceJson, pythonAsciiJson } from './reference-json.js';
import {
  type ReferenceManifestCidInput,
  type ReferenceNodeManifest,
  referenceManifestCid,
  referenceNodeManifestToContract,
  verifyReferenceCommunityManifest,
  verifyReferenceNodeManifest,
} from './reference-manifests.js';
import {
  type ReferenceSnapshot,
  referenceSnapshotSigningBytes,
  signReferenceSnapshot,
  verifyReferenceSnapshot,
} from './reference-snapshot.js';

interface Case {
  readonly id: string;
  readonly operation: string;
  readonly [field: string]: unknown;
}

const fixture = loadHearthnetFixture<Case>('compat.json');
const byOperation = (operation: string) => fixture.cases.filter((c) => c.operation === operation);
const text = (c: Case, field: string) => c[field] as string;
const eventOf = (c: Case) => parseReferenceJson(text(c, 'event_text')) as ReferenceEvent;
const snapshotOf = (c: Case) => parseReferenceJson(text(c, 'snapshot_text')) as ReferenceSnapshot;
const hasherOf = (c: Case) => (c['hasher'] === 'sha256' ? sha256Hasher : blake3Hasher);

/** Runs `act` and returns the thrown error's `code` and `details.reason`, or the result. */
function outcome(c: Case, act: () => unknown): unknown {
  try {
    return act();
  } catch (error) {
    const { code, details } = error as { code?: unknown; details?: { reason?: unknown } };
    const reason = details?.reason;
    return c['reason'] === undefined ? { error: code } : { error: code, reason };
  }
}
const expectedOutcome = (c: Case) =>
  c['error'] === undefined
    ? c['expected']
    : c['reason'] === undefined
      ? { error: c['error'] }
      : { error: c['error'], reason: c['reason'] };

describe('compat.json', () => {
  it('has cases of every operation', () => {
    expect(new Set(fixture.cases.map((c) => c.operation))).toEqual(
      new Set([
        'float-repr',
        'b-form',
        'ascii-insertion',
        'event-id-to-ulid',
        'timestamp-to-contract',
        'sign-reference-event',
        'verify-reference-event',
        'reference-to-contract',
        'contract-to-reference',
        'make-invite',
        'encode-invite',
        'decode-invite',
        'verify-invite',
        'verify-reference-node-manifest',
        'verify-reference-community-manifest',
        'reference-manifest-to-contract',
        'snapshot-signing-bytes',
        'snapshot-sign',
        'snapshot-verify',
        'sse-frame',
        'manifest-cid',
        'blob-cid',
      ]),
    );
  });

  it.each(byOperation('float-repr'))('$id', (c) => {
    const value = new DataView(hexDecode(text(c, 'bits')).buffer).getFloat64(0);
    expect(pythonFloatRepr(value)).toBe(c['expected']);
  });

  it.each(byOperation('b-form'))('$id', (c) => {
    expect(pythonAsciiJson(parseReferenceJson(text(c, 'json_text')), { sortKeys: true })).toBe(c['expected']);
  });

  it.each(byOperation('ascii-insertion'))('$id', (c) => {
    expect(pythonAsciiJson(parseReferenceJson(text(c, 'json_text')), { sortKeys: false })).toBe(
      c['expected'],
    );
  });

  it.each(byOperation('event-id-to-ulid'))('$id', (c) => {
    expect(outcome(c, () => referenceEventIdToUlid(text(c, 'reference_id')))).toEqual(expectedOutcome(c));
  });

  it.each(byOperation('timestamp-to-contract'))('$id', (c) => {
    expect(outcome(c, () => referenceTimestampToContract(text(c, 'reference')))).toEqual(expectedOutcome(c));
  });

  it.each(byOperation('sign-reference-event'))('$id', (c) => {
    const event = eventOf(c);
    expect(new TextDecoder().decode(referenceSigningBytes(event))).toBe(c['signing_bytes']);
    const key = keyPairFromSeed(hexDecode(text(c, 'seed')));
    expect(signReferenceEvent(event, key).signature).toBe(c['expected']);
  });

  it.each(byOperation('verify-reference-event'))('$id', (c) => {
    const verdict = verifyReferenceEvent(eventOf(c), { acceptUnsigned: c['accept_unsigned'] === true });
    expect(
      verdict.valid ? { valid: true, signed: verdict.signed } : { valid: false, reason: verdict.reason },
    ).toEqual(c['expected']);
  });

  it.each(byOperation('reference-to-contract'))('$id', (c) => {
    expect(outcome(c, () => referenceEventToContract(eventOf(c)))).toEqual(expectedOutcome(c));
  });

  it.each(byOperation('contract-to-reference'))('$id', (c) => {
    expect(contractEventToReference(c['event'] as UnsignedEvent)).toEqual(c['expected']);
  });

  it.each(byOperation('make-invite'))('$id', (c) => {
    const key = keyPairFromSeed(hexDecode(text(c, 'seed')));
    expect(makeReferenceInvite(c['input'] as ReferenceInviteInput, key)).toEqual(c['expected']);
  });

  it.each(byOperation('encode-invite'))('$id', (c) => {
    expect(encodeReferenceInvite(c['invite'] as ReferenceInvite)).toBe(c['expected']);
  });

  it.each(byOperation('decode-invite'))('$id', (c) => {
    expect(outcome(c, () => decodeReferenceInvite(text(c, 'blob')))).toEqual(expectedOutcome(c));
  });

  it.each(byOperation('verify-invite'))('$id', (c) => {
    const verdict = verifyReferenceInvite(c['invite'] as ReferenceInvite, { now: text(c, 'now') });
    expect(verdict.valid ? { valid: true } : { valid: false, reason: verdict.reason }).toEqual(c['expected']);
  });

  it.each([
    ...byOperation('verify-reference-node-manifest').map((c) => [c, verifyReferenceNodeManifest] as const),
    ...byOperation('verify-reference-community-manifest').map(
      (c) => [c, verifyReferenceCommunityManifest] as const,
    ),
  ])('%#: manifest verification', (c, verify) => {
    const verdict = verify(c['manifest'], { now: c['now_ms'] as number });
    expect(verdict.valid ? { valid: true } : { valid: false, reason: verdict.reason }, c.id).toEqual(
      c['expected'],
    );
  });

  it.each(byOperation('reference-manifest-to-contract'))('$id', (c) => {
    const hashes = c['schema_hashes'] as Record<string, string>;
    const act = () =>
      referenceNodeManifestToContract(c['manifest'] as ReferenceNodeManifest, {
        schemaHash: (name, version) => hashes[`${name}@${version}`],
      });
    if (c['error'] === undefined) {
      expect(act()).toEqual(c['expected']);
    } else {
      expect(act).toThrow(expect.objectContaining({ code: c['error'], path: c['path'] }));
    }
  });

  it.each(byOperation('snapshot-signing-bytes'))('$id', (c) => {
    expect(new TextDecoder().decode(referenceSnapshotSigningBytes(snapshotOf(c)))).toBe(c['expected']);
  });

  it.each(byOperation('snapshot-sign'))('$id', (c) => {
    const snapshot = snapshotOf(c);
    expect(new TextDecoder().decode(referenceSnapshotSigningBytes(snapshot))).toBe(c['signing_bytes']);
    const key = keyPairFromSeed(hexDecode(text(c, 'seed')));
    const signed = signReferenceSnapshot(snapshot, key);
    expect(signed.signature).toBe(c['expected']);
    expect(verifyReferenceSnapshot(signed)).toMatchObject({ valid: true, signed: true });
  });

  it.each(byOperation('snapshot-verify'))('$id', (c) => {
    const verdict = verifyReferenceSnapshot(snapshotOf(c), { acceptUnsigned: c['accept_unsigned'] === true });
    expect(
      verdict.valid ? { valid: true, signed: verdict.signed } : { valid: false, reason: verdict.reason },
    ).toEqual(c['expected']);
  });

  it.each(byOperation('sse-frame'))('$id', (c) => {
    const event = c['event'] as string | undefined;
    expect(
      outcome(c, () => encodeReferenceSseFrame(parseReferenceJson(text(c, 'data_text')), event)),
    ).toEqual(expectedOutcome(c));
  });

  it.each(byOperation('manifest-cid'))('$id', (c) => {
    expect(
      outcome(c, () => referenceManifestCid(c['manifest'] as ReferenceManifestCidInput, hasherOf(c))),
    ).toEqual(expectedOutcome(c));
  });

  it.each(byOperation('blob-cid'))('$id', (c) => {
    expect(blobCid(c['chunk_cids'] as string[], hasherOf(c))).toBe(c['expected']);
  });
});
