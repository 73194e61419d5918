// Sign a HearthNet payload, verify it by node id, and watch a tampered copy and a lossy float fail
// or get reported. Runs end to end and asserts: `pnpm --filter @agentwire-examples/hearthnet-signing start`.
import { strict as assert } from 'node:assert';
import {
  canonicalJsonString,
  contentId,
  keyPairFromSeed,
  parseNodeId,
  shortNodeId,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet';

// A fixed seed keeps the output reproducible; use generateKeyPair() for a real node.
const seed = new Uint8Array(32).fill(7);
const node = keyPairFromSeed(seed);
console.log('node id      ', node.nodeId);
console.log('display id   ', shortNodeId(node.publicKey));
assert.deepEqual(parseNodeId(node.nodeId), node.publicKey);

const post = {
  kind: 'offer',
  title: 'Sourdough starter',
  location: { lat: 52.520008, lng: 13.404954, label: 'Kiez' },
  blob: contentId('a photo of the starter'),
};
const signed = signPayload(post, node);
console.log('canonical    ', canonicalJsonString(signed));

// %g keeps six significant digits: the signed copy carries the normalised numbers.
assert.equal(signed.location.lat, 52.52);
assert.equal(signed.location.lng, 13.405);

const ok = verifyPayload(signed, node.nodeId);
assert.deepEqual(ok, { valid: true });
console.log('verify       ', ok);

const tampered = { ...signed, title: 'Sourdough starter (free)' };
const bad = verifyPayload(tampered, node.nodeId);
assert.equal(bad.valid, false);
assert.equal(bad.valid === false && bad.reason, 'signature_mismatch');
console.log('tampered     ', bad);

// A peer that sends the unnormalised numbers still verifies (the reference canonicalises both
// sides the same way), and the verifier reports which numbers were not in canonical form.
const foreign = { ...signed, location: post.location };
const lossy = verifyPayload(foreign, node.nodeId);
assert.equal(lossy.valid, true);
assert.deepEqual(lossy.lossyNumbers, ['$.location.lat', '$.location.lng']);
console.log('foreign form ', lossy);
console.log('hearthnet-signing example: all assertions passed');
