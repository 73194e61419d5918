import { blake3Hasher, blobCid, keyPairFromSeed, sha256Hasher } from '@agentwire/hearthnet';
import {
  PythonFloat,
  type ReferenceEvent,
  type ReferenceSnapshot,
  referenceEvents,
  referenceInvites,
  referenceJson,
  referenceManifests,
  referenceSnapshots,
} from '@agentwire/hearthnet/compat';
import type { CompatHasher, CompatImplementation, CompatVerdict } from './compat.js';

type ContractEvent = Parameters<typeof referenceEvents.fromContract>[0];
type InviteInput = Parameters<typeof referenceInvites.make>[0];
type Invite = Parameters<typeof referenceInvites.encode>[0];
type NodeManifest = Parameters<typeof referenceManifests.toContract>[0];
type ManifestCidInput = Parameters<typeof referenceManifests.cid>[0];

const hasherOf = (name: CompatHasher) => (name === 'sha256' ? sha256Hasher : blake3Hasher);
const eventOf = (text: string) => referenceJson.parse(text) as ReferenceEvent;
const snapshotOf = (text: string) => referenceJson.parse(text) as ReferenceSnapshot;

/**
 * The `data: ` line's JSON of the reference's SSE frame for `value`: the frame writes its data with
 * `json.dumps(separators=(',', ':'))`, ASCII-only, keys in insertion order and floats as `repr`, which
 * is exactly the form the `float-repr` and `ascii-insertion` cases ask for.
 */
function dataLineOf(value: unknown): string {
  const frame = referenceJson.encodeSseFrame(value);
  return frame.slice('data: '.length, -'\n\n'.length);
}

function verdictOf(verdict: { valid: boolean; signed?: boolean; reason?: string }): CompatVerdict {
  return verdict.valid
    ? { valid: true, ...(verdict.signed === undefined ? {} : { signed: verdict.signed }) }
    : { valid: false, ...(verdict.reason === undefined ? {} : { reason: verdict.reason }) };
}

/** `compatSuite`'s view of `@agentwire/hearthnet/compat` (and the blob CID of `@agentwire/hearthnet`). */
export const agentwireCompat: CompatImplementation = {
  floatRepr: (value) => dataLineOf(new PythonFloat(value)),
  asciiJson: (text) => dataLineOf(referenceJson.parse(text)),
  eventIdToUlid: (id) => referenceEvents.idToUlid(id),
  timestampToContract: (reference) => referenceEvents.timestampToContract(reference),
  eventSigningBytes: (text) => referenceEvents.signingBytes(eventOf(text)),
  signEvent: (text, seed) => referenceEvents.sign(eventOf(text), keyPairFromSeed(seed)).signature,
  verifyEvent: (text, { acceptUnsigned }) =>
    verdictOf(referenceEvents.verify(eventOf(text), { acceptUnsigned })),
  eventToContract: (text) => referenceEvents.toContract(eventOf(text)),
  eventFromContract: (event) => referenceEvents.fromContract(event as unknown as ContractEvent),
  makeInvite: (input, seed) => referenceInvites.make(input as unknown as InviteInput, keyPairFromSeed(seed)),
  encodeInvite: (invite) => referenceInvites.encode(invite as unknown as Invite),
  decodeInvite: (blob) => referenceInvites.decode(blob),
  verifyInvite: (invite, { now }) => verdictOf(referenceInvites.verify(invite as unknown as Invite, { now })),
  verifyNodeManifest: (manifest, { now }) => verdictOf(referenceManifests.verifyNode(manifest, { now })),
  verifyCommunityManifest: (manifest, { now }) =>
    verdictOf(referenceManifests.verifyCommunity(manifest, { now })),
  manifestToContract: (manifest, hashes) =>
    referenceManifests.toContract(manifest as unknown as NodeManifest, {
      schemaHash: (name, version) => hashes[`${name}@${version}`],
    }),
  snapshotSigningBytes: (text) => referenceSnapshots.signingBytes(snapshotOf(text)),
  signSnapshot: (text, seed) => referenceSnapshots.sign(snapshotOf(text), keyPairFromSeed(seed)).signature,
  verifySnapshot: (text, { acceptUnsigned }) =>
    verdictOf(referenceSnapshots.verify(snapshotOf(text), { acceptUnsigned })),
  sseFrame: (text, event) => referenceJson.encodeSseFrame(referenceJson.parse(text), event),
  manifestCid: (manifest, hasher) =>
    referenceManifests.cid(manifest as unknown as ManifestCidInput, hasherOf(hasher)),
  blobCid: (chunkCids, hasher) => blobCid([...chunkCids], hasherOf(hasher)),
  errorFacts: (error) => {
    const { code, path, details } = (error ?? {}) as {
      code?: unknown;
      path?: unknown;
      details?: { reason?: unknown };
    };
    const reason = details?.reason;
    return {
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof reason === 'string' ? { reason } : {}),
      ...(typeof path === 'string' ? { path } : {}),
    };
  },
};
